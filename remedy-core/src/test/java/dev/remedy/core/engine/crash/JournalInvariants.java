package dev.remedy.core.engine.crash;

import dev.remedy.core.flow.Stage;
import dev.remedy.spi.PowerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The invariants of a crash campaign, checked by replaying its journal (see {@link JournalLine}); every check returns
 * one sentence per violation, and none when the invariants hold.
 *
 * <p>{@link #safety} holds after every kill: no release without a saved confirmation (the record on disk right before
 * the release has one, the machine is OFF and was read OFF since it was switched off); no double OFF (the machine goes
 * ON to OFF at most once per fence decision; OFF when already off is idempotent); no decision while the node's flow
 * is active, nor a second one (each node fails once); and the journal agrees with itself (every command and read
 * starts from the power the journal left).
 *
 * <p>{@link #completion} holds once the last engine process finished: every record FINAL, every machine ON (journal
 * and power file) after exactly one OFF and one ON, workloads released, no node left cordoned, tainted or deleted.
 */
final class JournalInvariants {

    private JournalInvariants() {
    }

    /** The safety invariants of {@code journal}. */
    static List<String> safety(List<JournalLine> journal) {
        return Replay.of(journal).violations;
    }

    /**
     * The end state: {@code stages} are the stage codes of the records on disk by node, {@code powerFiles} the power
     * the machines' files read. Includes the safety violations.
     */
    static List<String> completion(List<JournalLine> journal, List<String> nodes, Map<String, String> stages,
                                   Map<String, PowerState> powerFiles) {
        Replay replay = Replay.of(journal);
        List<String> violations = new ArrayList<>(replay.violations);
        for (String name : nodes) {
            NodeReplay node = replay.nodes.getOrDefault(name, new NodeReplay());
            String stage = stages.get(name);
            if (!Stage.FINISHED.code().equals(stage)) {
                violations.add(name + ": the record on disk is " + (stage == null ? "missing" : "in stage " + stage)
                        + ", not FINAL");
            }
            if (node.power != PowerState.ON || powerFiles.get(name) != PowerState.ON) {
                violations.add(name + ": left powered off (journal: " + node.power + ", power file: "
                        + powerFiles.get(name) + ")");
            }
            if (node.offs != 1 || node.ons != 1) {
                violations.add(name + ": powered off " + node.offs + " and on " + node.ons
                        + " times; one fence powers it off once and on once");
            }
            if (!node.released) {
                violations.add(name + ": its workloads were never released");
            }
            List<String> left = new ArrayList<>();
            if (node.cordoned) {
                left.add("cordoned");
            }
            if (!node.taints.isEmpty()) {
                left.add("tainted " + node.taints);
            }
            if (node.deleted) {
                left.add("its Node object deleted");
            }
            if (!left.isEmpty()) {
                violations.add(name + ": left " + String.join(", ", left));
            }
        }
        return violations;
    }

    /** The journal replayed line by line. */
    private static final class Replay {
        final Map<String, NodeReplay> nodes = new TreeMap<>();
        final List<String> violations = new ArrayList<>();

        static Replay of(List<JournalLine> journal) {
            Replay replay = new Replay();
            for (int i = 0; i < journal.size(); i++) {
                JournalLine line = journal.get(i);
                if (!line.node().equals(JournalLine.NO_NODE)) {
                    replay.nodes.computeIfAbsent(line.node(), n -> new NodeReplay())
                            .apply(line, "line " + (i + 1) + " (" + line + ")", replay.violations);
                }
            }
            return replay;
        }
    }

    /** One node's machine and cluster state as the journal leaves them. */
    private static final class NodeReplay {
        PowerState power = PowerState.ON;
        /** Whether STATUS read OFF since the machine last changed power. */
        boolean readOff;
        int decisions;
        int offsThisDecision;
        int offs;
        int ons;
        /** The RECORD line journaled for the next release, if any. */
        JournalLine saved;
        boolean released;
        boolean cordoned;
        boolean deleted;
        final Set<String> taints = new TreeSet<>();

        void apply(JournalLine line, String at, List<String> violations) {
            if (line.isRelease()) {
                release(line, at, violations);
            }
            switch (line.event()) {
                case DECIDE -> decide(line, at, violations);
                case POWER -> power(line, at, violations);
                case STATUS -> {
                    PowerState read = PowerState.valueOf(line.field("power"));
                    if (read != power) {
                        violations.add(at + ": STATUS read " + read + " but the journal left the machine " + power);
                    }
                    readOff |= read == PowerState.OFF;
                }
                case RECORD -> saved = line;
                case CORDON -> cordoned = true;
                case UNCORDON -> cordoned = false;
                case TAINT -> taints.add(line.field("key"));
                case UNTAINT -> taints.remove(line.field("key"));
                case DELETE_NODE -> deleted = true;
                case RESTORE_NODE -> deleted = false;
                case DELETE_PODS, START, DONE -> {
                    // a release (checked above), or no node state
                }
            }
        }

        private void decide(JournalLine line, String at, List<String> violations) {
            String previous = line.field("previous");
            if (!previous.equals("none") && !previous.equals(Stage.FINISHED.code())) {
                violations.add(at + ": decided while its flow was active (stage " + previous + ")");
            }
            decisions++;
            if (decisions > 1) {
                violations.add(at + ": decided a second time; the node fails once, so an earlier flow ended without"
                        + " bringing it back");
            }
            offsThisDecision = 0;
        }

        private void power(JournalLine line, String at, List<String> violations) {
            PowerState from = PowerState.valueOf(line.field("from"));
            PowerState to = PowerState.valueOf(line.field("to"));
            if (from != power) {
                violations.add(at + ": the command found the machine " + from + " but the journal left it " + power);
            }
            if (from == PowerState.ON && to == PowerState.OFF) {
                offs++;
                offsThisDecision++;
                if (offsThisDecision > 1) {
                    violations.add(at + ": double OFF, the machine went from ON to OFF a second time in one fence"
                            + " decision");
                }
            } else if (from == PowerState.OFF && to == PowerState.ON) {
                ons++;
            }
            if (to != power) {
                readOff = false;
            }
            power = to;
        }

        private void release(JournalLine line, String at, List<String> violations) {
            if (saved == null || saved.pid() != line.pid()) {
                violations.add(at + ": release without the record on disk journaled right before it");
            } else if (saved.field("confirmation").equals("none")) {
                violations.add(at + ": release without a saved confirmation: the record on disk was "
                        + saved.fields());
            }
            if (power != PowerState.OFF || !readOff) {
                violations.add(at + ": release while the machine " + (power != PowerState.OFF ? "was " + power
                        : "had not been read OFF since it was switched off"));
            }
            saved = null;
            released = true;
        }
    }
}
