package dev.remedy.core.engine.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The crash campaign's checker, fed handcrafted journals: it passes a sound one and names each broken invariant. */
class JournalInvariantsTest {

    private static final String NODE = "node-00";
    private static final List<String> DECIDED = List.of(
            "1000 7 START - nodes=1",
            "1001 7 DECIDE node-00 decidedAt=2030-01-01T00:00:00Z previous=none",
            "1002 7 CORDON node-00",
            "1003 7 TAINT node-00 key=remedy.dev/fencing");
    private static final List<String> RELEASED = List.of(
            "1004 7 POWER node-00 from=ON to=OFF",
            "1005 7 STATUS node-00 power=OFF",
            "1006 7 RECORD node-00 stage=release confirmation=STATUS_READ_OFF released=false version=9",
            "1007 7 TAINT node-00 key=node.kubernetes.io/out-of-service",
            "1008 7 RECORD node-00 stage=release confirmation=STATUS_READ_OFF released=false version=9",
            "1009 7 DELETE_PODS node-00");
    private static final List<String> RECOVERED = List.of(
            "1010 7 UNTAINT node-00 key=node.kubernetes.io/out-of-service",
            "1011 7 POWER node-00 from=OFF to=ON",
            "1012 7 UNTAINT node-00 key=remedy.dev/fencing",
            "1013 7 UNCORDON node-00",
            "1014 7 DONE -");

    @Test
    @DisplayName("a sound flow violates nothing, and its end state is complete")
    void soundFlow() {
        List<JournalLine> journal = journal(DECIDED, RELEASED, RECOVERED);

        assertThat(JournalInvariants.safety(journal)).isEmpty();
        assertThat(JournalInvariants.completion(journal, List.of(NODE), Map.of(NODE, "finished"),
                Map.of(NODE, PowerState.ON))).isEmpty();
    }

    @Test
    @DisplayName("OFF re-issued by a restarted engine to a machine already off is not a double OFF")
    void idempotentOffAfterRestart() {
        List<JournalLine> journal = journal(DECIDED, List.of(
                "1004 7 POWER node-00 from=ON to=OFF",
                "1100 8 START - nodes=1",
                "1101 8 POWER node-00 from=OFF to=OFF",
                "1102 8 STATUS node-00 power=OFF"));

        assertThat(JournalInvariants.safety(journal)).isEmpty();
    }

    @Test
    @DisplayName("a release whose record on disk had no confirmation is reported")
    void releaseBeforeConfirmation() {
        List<JournalLine> journal = journal(DECIDED, List.of(
                "1004 7 POWER node-00 from=ON to=OFF",
                "1005 7 STATUS node-00 power=OFF",
                "1006 7 RECORD node-00 stage=confirm_off confirmation=none released=false version=8",
                "1007 7 TAINT node-00 key=node.kubernetes.io/out-of-service"));

        assertThat(JournalInvariants.safety(journal)).singleElement().asString()
                .startsWith("line 8 ").contains("release without a saved confirmation").contains("confirm_off");
    }

    @Test
    @DisplayName("a release before STATUS read the machine OFF is reported, whatever the record says")
    void releaseBeforeStatusReadOff() {
        List<JournalLine> journal = journal(DECIDED, List.of(
                "1004 7 POWER node-00 from=ON to=OFF",
                "1006 7 RECORD node-00 stage=release confirmation=STATUS_READ_OFF released=false version=9",
                "1007 7 DELETE_PODS node-00"));

        assertThat(JournalInvariants.safety(journal)).singleElement().asString()
                .contains("DELETE_PODS").contains("had not been read OFF");
    }

    @Test
    @DisplayName("a release after a record read by a process that was killed is reported: the releasing one read none")
    void releaseWithoutItsOwnRecord() {
        List<JournalLine> journal = journal(DECIDED, List.of(
                "1004 7 POWER node-00 from=ON to=OFF",
                "1005 7 STATUS node-00 power=OFF",
                "1006 7 RECORD node-00 stage=release confirmation=STATUS_READ_OFF released=false version=9",
                "1100 8 START - nodes=1",
                "1101 8 TAINT node-00 key=node.kubernetes.io/out-of-service"));

        assertThat(JournalInvariants.safety(journal)).singleElement().asString()
                .contains("without the record on disk journaled right before it");
    }

    @Test
    @DisplayName("a machine switched from ON to OFF twice within one decision is a double OFF")
    void doubleOff() {
        List<JournalLine> journal = journal(DECIDED, RELEASED, List.of(
                "1010 7 UNTAINT node-00 key=node.kubernetes.io/out-of-service",
                "1011 7 POWER node-00 from=OFF to=ON",
                "1100 8 START - nodes=1",
                "1101 8 POWER node-00 from=ON to=OFF"));

        assertThat(JournalInvariants.safety(journal)).singleElement().asString()
                .startsWith("line 14 ").contains("double OFF");
    }

    @Test
    @DisplayName("a decision that replaced an active flow is reported")
    void decidedWhileActive() {
        List<JournalLine> journal = journal(DECIDED, List.of(
                "1004 7 POWER node-00 from=ON to=OFF",
                "1005 7 DECIDE node-00 decidedAt=2030-01-01T00:00:01Z previous=confirm_off"));

        assertThat(JournalInvariants.safety(journal))
                .anySatisfy(v -> assertThat(v).contains("decided while its flow was active (stage confirm_off)"))
                .anySatisfy(v -> assertThat(v).contains("decided a second time"));
    }

    @Test
    @DisplayName("a command that finds the machine in another state than the journal left it is reported")
    void journalDisagreesWithItself() {
        List<JournalLine> journal = journal(DECIDED, List.of("1004 7 POWER node-00 from=OFF to=ON"));

        assertThat(JournalInvariants.safety(journal)).singleElement().asString()
                .contains("found the machine OFF but the journal left it ON");
    }

    @Test
    @DisplayName("a node left off, cordoned and tainted, with its record not FINAL, is incomplete on every count")
    void nodeLeftOff() {
        List<JournalLine> journal = journal(DECIDED, RELEASED);

        assertThat(JournalInvariants.safety(journal)).isEmpty();
        assertThat(JournalInvariants.completion(journal, List.of(NODE), Map.of(NODE, "lift_out_of_service"),
                Map.of(NODE, PowerState.OFF))).containsExactly(
                "node-00: the record on disk is in stage lift_out_of_service, not FINAL",
                "node-00: left powered off (journal: OFF, power file: OFF)",
                "node-00: powered off 1 and on 0 times; one fence powers it off once and on once",
                "node-00: left cordoned, tainted [node.kubernetes.io/out-of-service, remedy.dev/fencing]");
    }

    @SafeVarargs
    private static List<JournalLine> journal(List<String>... parts) {
        List<JournalLine> lines = new ArrayList<>();
        Arrays.stream(parts).flatMap(List::stream).map(JournalLine::parse).forEach(lines::add);
        return lines;
    }
}
