package dev.remedy.core.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.crash.CrashLab.SavedRecord;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.store.JsonFileStateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign (issue 13, "Proving it"): {@link CrashCampaignEngine} in a child JVM fences 20 nodes of a
 * {@link CrashLab} while this test kills it with SIGKILL at random moments and starts it again, checking the
 * {@link JournalInvariants} after every kill and, once a last run has finished every flow, the end state; and two
 * engines started on one directory.
 *
 * <p>Kills are drawn from a seeded {@link Random} whose seed is printed first; {@code -Dremedy.crash.seed=<seed>}
 * replays the same kill schedule (the moments the engine reaches depend on the machine too) and
 * {@code -Dremedy.crash.kills=<n>} sets the number of kills. Every wait is bounded, and every child is killed when
 * its test ends.
 */
@DisplayName("the engine in a child JVM with the JSON file store")
class CrashCampaignIT {

    private static final int NODES = 20;
    /** Flows the child's operator runs at a time: spreads the work over the kills. */
    private static final int CONCURRENT = 2;
    /** The default keeps the campaign near a minute on two cores. */
    private static final int KILLS = Integer.getInteger("remedy.crash.kills", 40);
    /** One kill in this many is aimed at the start (JVM, store load, re-issued operations), not the run. */
    private static final int STARTUP_KILL_ONE_IN = 5;
    /** How long a start takes, until one has been measured (then the fastest start measured). */
    private static final Duration STARTUP_GUESS = Duration.ofMillis(500);
    private static final Duration MAX_KILL_DELAY = Duration.ofMillis(300);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(75);
    private static final Duration REFUSAL_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    private Path dir;

    @Test
    @DisplayName("killed at random moments and restarted, it never releases unconfirmed or powers off twice, and"
            + " leaves no node off")
    void killedAtRandomMoments() throws Exception {
        long seed = Long.getLong("remedy.crash.seed", ThreadLocalRandom.current().nextLong());
        Random random = new Random(seed);
        long began = System.nanoTime();
        Path logs = dir.resolve("logs");
        print("crash campaign: seed %d (replay with -Dremedy.crash.seed=%d), %d kills, %d nodes, %d fenced at a"
                + " time, in %s", seed, seed, KILLS, NODES, CONCURRENT, dir);
        Duration fastestStart = null;
        int kills = 0;
        int runs = 0;
        boolean finishedEarly = false;
        while (kills < KILLS && !finishedEarly) {
            runs++;
            boolean atStartup = random.nextInt(STARTUP_KILL_ONE_IN) == 0;
            double fraction = random.nextDouble();
            try (ChildEngine child = ChildEngine.start(dir, logs, "run-" + runs, NODES, CONCURRENT)) {
                long delay;
                if (atStartup) {
                    delay = (long) (fraction * (fastestStart != null ? fastestStart : STARTUP_GUESS).toMillis());
                } else {
                    assertThat(child.awaitRunning(START_TIMEOUT))
                            .as(() -> "the engine did not finish starting (seed " + seed + "):\n" + child.describe())
                            .isTrue();
                    Duration age = child.age();
                    fastestStart = fastestStart == null || age.compareTo(fastestStart) < 0 ? age : fastestStart;
                    delay = (long) (fraction * MAX_KILL_DELAY.toMillis());
                }
                Thread.sleep(delay);
                finishedEarly = !child.isAlive();
                if (!finishedEarly) {
                    child.kill();
                    kills++;
                }
                assertThat(child.unexpectedStderr()).as(child::describe).isEmpty();
                if (finishedEarly) {
                    assertThat(child.awaitExit(Duration.ZERO)).as(child::describe).contains(0);
                    print("run %d finished every flow before its kill", runs);
                } else {
                    printKill(kills, delay, atStartup);
                }
            }
            assertThat(dir.resolve(CrashLab.STORE).resolve(JsonFileStateStore.QUARANTINE_DIRECTORY))
                    .as("no record was found corrupt").doesNotExist();
            assertThat(JournalInvariants.safety(CrashLab.readJournal(dir))).as("after kill %d (seed %d)", kills, seed)
                    .isEmpty();
        }
        runs++;
        try (ChildEngine last = ChildEngine.start(dir, logs, "final", NODES, CONCURRENT)) {
            assertThat(last.awaitExit(FINISH_TIMEOUT)).as(() -> "the last run did not finish every flow (seed " + seed
                    + "):\n" + last.describe()).contains(0);
            assertThat(last.running()).as(last::describe).isTrue();
            assertThat(last.unexpectedStderr()).as(last::describe).isEmpty();
        }
        List<JournalLine> journal = CrashLab.readJournal(dir);
        List<String> nodes = CrashLab.nodes(NODES);
        assertThat(JournalInvariants.completion(journal, nodes, CrashLab.readRecordStages(dir),
                CrashLab.readPowerFiles(dir, nodes))).as("at the end (seed %d)", seed).isEmpty();
        long repeated = journal.stream().filter(line -> line.event() == JournalLine.Event.POWER
                && line.field("from").equals(line.field("to"))).count();
        print("crash campaign passed: seed %d, %d kills, %d restarts, %d nodes, %d journal lines (%d power commands"
                + " re-issued to a machine already switched), %.1f s", seed, kills, runs - 1, NODES, journal.size(),
                repeated, (System.nanoTime() - began) / 1e9);
    }

    /** Relies on the lock on the store's directory that issue 13 adds to {@link JsonFileStateStore}. */
    @Test
    @DisplayName("a second engine on a directory in use exits with code 3 naming the first one's pid, and the first"
            + " completes unaffected")
    void secondEngineOnOneDirectory() throws Exception {
        Path logs = dir.resolve("logs");
        long secondPid;
        try (ChildEngine first = ChildEngine.start(dir, logs, "first", NODES, CONCURRENT)) {
            assertThat(first.awaitRunning(START_TIMEOUT)).as(first::describe).isTrue();
            try (ChildEngine second = ChildEngine.start(dir, logs, "second", NODES, CONCURRENT)) {
                secondPid = second.pid();
                assertThat(second.awaitRunning(REFUSAL_TIMEOUT)).as(() -> "the second engine started on the directory"
                        + " of the first (pid " + first.pid() + "):\n" + second.describe()).isFalse();
                assertThat(second.awaitExit(Duration.ZERO)).as(() -> "the second engine neither started nor ended"
                        + " within " + REFUSAL_TIMEOUT + ":\n" + second.describe())
                        .contains(CrashCampaignEngine.START_FAILED);
                assertThat(second.stderr()).as(second::describe).containsIgnoringCase("in use")
                        .contains(String.valueOf(first.pid()));
            }
            assertThat(first.awaitExit(FINISH_TIMEOUT)).as(first::describe).contains(0);
            assertThat(first.unexpectedStderr()).as(first::describe).isEmpty();
        }
        List<JournalLine> journal = CrashLab.readJournal(dir);
        List<String> nodes = CrashLab.nodes(NODES);
        assertThat(journal).as("the refused engine acted on nothing").noneMatch(line -> line.pid() == secondPid);
        assertThat(JournalInvariants.completion(journal, nodes, CrashLab.readRecordStages(dir),
                CrashLab.readPowerFiles(dir, nodes))).isEmpty();
    }

    /** What the kill interrupted, as the records on disk show it. */
    private void printKill(int kills, long delay, boolean atStartup) {
        Map<String, SavedRecord> records = CrashLab.readRecords(dir);
        long finals = records.values().stream().filter(r -> r.stage().equals(Stage.FINISHED.code())).count();
        List<String> underWay = records.values().stream().flatMap(r -> r.operation().stream()).toList();
        print("kill %2d/%d %3d ms after %s: %2d FINAL, %d in flight (operations under way: %s), %2d not decided yet",
                kills, KILLS, delay, atStartup ? "launch" : "start ", finals, records.size() - finals, underWay,
                NODES - records.size());
    }

    private static void print(String format, Object... args) {
        System.out.println(String.format(format, args));
    }
}
