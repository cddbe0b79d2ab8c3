package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The host reboot-request rules: parsing, pending, hold-off, mode, removal, deprovisioning. */
class RebootRequestsTest {

    private static final Instant T0 = Instant.parse("2024-05-01T00:00:00Z");
    private static final String U = RebootRequests.ANNOTATION;

    private static Instant t(String seconds) {
        return T0.plusSeconds(Long.parseLong(seconds));
    }

    private static Optional<Instant> opt(String seconds) {
        return seconds.equals("-") ? Optional.empty() : Optional.of(t(seconds));
    }

    /** "u" unkeyed, "a" keyed a, a trailing "H" asks hard, a trailing "!" is a malformed value, "-" none. */
    private static Map<String, String> annotations(String spec) {
        Map<String, String> m = new HashMap<>();
        m.put("unrelated.example.com/x", "y");
        if (spec.equals("-")) {
            return m;
        }
        for (String s : spec.split(",")) {
            String name = s.charAt(0) == 'u' ? U : RebootRequests.ANNOTATION_PREFIX + s.charAt(0);
            String value = s.endsWith("H") ? "{\"mode\":\"hard\"}" : s.endsWith("!") ? "{mode: hard" : "";
            m.put(name, value);
        }
        return m;
    }

    @ParameterizedTest(name = "[{index}] {0} online={1} on={2} last={3} since={4} req={5} -> on={6} {7} pending={8}")
    @CsvSource(delimiter = '|', textBlock = """
            # state               | online | on    | last | since | requests | powerOn | mode | pending | remove    | newSince
            PROVISIONED           | true   | true  | 100  | -     | -        | true    | SOFT | false   | -         | -
            PROVISIONED           | false  | true  | 100  | -     | -        | false   | SOFT | false   | -         | -
            PROVISIONED           | true   | true  | 100  | -     | u        | false   | SOFT | true    | -         | 1000
            PROVISIONED           | true   | true  | 100  | 50    | u        | false   | SOFT | true    | -         | 1000
            PROVISIONED           | true   | true  | 100  | 200   | u        | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | true  | -    | 200   | u        | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | false | 100  | 200   | u        | true    | SOFT | true    | u         | 200
            PROVISIONED           | true   | false | 100  | 200   | u,a      | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | false | 100  | 200   | a        | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | false | 100  | 200   | a,b      | false   | SOFT | true    | -         | 200
            PROVISIONED           | false  | false | 100  | 200   | u        | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | true  | 100  | 200   | u,bH     | false   | HARD | true    | -         | 200
            PROVISIONED           | true   | true  | 100  | 200   | uH,a     | false   | HARD | true    | -         | 200
            PROVISIONED           | true   | true  | 100  | 200   | a!       | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | false | 100  | 200   | a!       | false   | SOFT | true    | -         | 200
            PROVISIONED           | true   | false | 100  | -     | u        | true    | SOFT | true    | u         | 1000
            PROVISIONED           | true   | false | 100  | -     | a        | false   | SOFT | true    | -         | 1000
            PROVISIONED           | true   | true  | 300  | 200   | -        | true    | SOFT | false   | -         | 200
            PROVISIONED           | true   | true  | 300  | 200   | a        | false   | SOFT | true    | -         | 1000
            PROVISIONED           | true   | true  | 200  | 200   | u        | false   | SOFT | true    | -         | 1000
            EXTERNALLY_PROVISIONED| true   | true  | 100  | -     | aH       | false   | HARD | true    | -         | 1000
            EXTERNALLY_PROVISIONED| true   | false | 100  | 200   | uH       | true    | HARD | true    | u         | 200
            DEPROVISIONING        | true   | false | 100  | 200   | u,a,bH   | true    | HARD | false   | u,a,b     | -
            DEPROVISIONING        | false  | true  | 100  | 200   | -        | false   | SOFT | false   | -         | -
            DELETING              | false  | true  | 100  | -     | u        | false   | SOFT | false   | u         | -
            AVAILABLE             | false  | true  | 100  | -     | u        | false   | SOFT | false   | -         | -
            PROVISIONING          | true   | false | -    | 200   | a        | true    | SOFT | false   | -         | 200
            INSPECTING            | true   | true  | -    | -     | aH       | true    | HARD | false   | -         | -
            REGISTERING           | true   | true  | -    | -     | -        | true    | SOFT | false   | -         | -
            UNMANAGED             | false  | false | -    | -     | u        | false   | SOFT | false   | -         | -
            """)
    @DisplayName("each host state gives the power, mode, removals and pending time of its row")
    void decisionTable(ProvisioningState state, boolean online, boolean on, String last, String since,
            String requests, boolean powerOn, RebootMode mode, boolean pending, String remove, String newSince) {
        HostSnapshot host = new HostSnapshot(annotations(requests), online, state, on, opt(last), opt(since));
        RebootDecision d = RebootRequests.decide(host, t("1000"));
        List<String> expectedRemove = remove.equals("-") ? List.of()
                : Arrays.stream(remove.split(",")).map(s -> s.equals("u") ? U : RebootRequests.ANNOTATION_PREFIX + s)
                        .sorted().toList();
        assertThat(d.powerOn()).as("powerOn; %s", d.reason()).isEqualTo(powerOn);
        assertThat(d.mode()).as("mode").isEqualTo(mode);
        assertThat(d.rebootPending()).as("pending; %s", d.reason()).isEqualTo(pending);
        assertThat(d.removeAnnotations()).as("remove").containsExactlyElementsOf(expectedRemove);
        assertThat(d.pendingRebootSince()).as("pendingRebootSince").isEqualTo(opt(newSince));
        assertThat(d.reason()).isNotBlank();
        assertThat(d.removeAnnotations()).doesNotContain("unrelated.example.com/x");
    }

    @ParameterizedTest(name = "{0} = ''{1}'' -> {2} {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            # annotation              | value                               | key     | mode | problem
            reboot.metal3.io          | ''                                  | -       | SOFT | -
            reboot.metal3.io          | '   '                               | -       | SOFT | -
            reboot.metal3.io          | '{"mode":"hard"}'                   | -       | HARD | -
            reboot.metal3.io          | '{"mode":"soft"}'                   | -       | SOFT | -
            reboot.metal3.io/capi     | '{}'                                | capi    | SOFT | -
            reboot.metal3.io/capi     | '{"mode":"hard","force":true}'      | capi    | HARD | -
            reboot.metal3.io/capi     | '{"reason":"uid-1234"}'             | capi    | SOFT | -
            reboot.metal3.io/k        | 'uid-1234'                          | k       | SOFT | is not JSON
            reboot.metal3.io/k        | '{mode: hard'                       | k       | SOFT | is not JSON
            reboot.metal3.io/k        | '"hard"'                            | k       | SOFT | is not a JSON object
            reboot.metal3.io/k        | '["hard"]'                          | k       | SOFT | is not a JSON object
            reboot.metal3.io/k        | 'null'                              | k       | SOFT | is not a JSON object
            reboot.metal3.io/k        | '{"mode":"HARD"}'                   | k       | SOFT | is neither
            reboot.metal3.io/k        | '{"mode":"reboot"}'                 | k       | SOFT | is neither
            reboot.metal3.io/k        | '{"mode":1}'                        | k       | SOFT | is neither
            reboot.metal3.io/k        | '{"mode":null}'                     | k       | SOFT | is neither
            """)
    @DisplayName("each annotation value parses to its key and mode; malformed values are reported and count as soft")
    void parseTable(String annotation, String value, String key, RebootMode mode, String problem) {
        RebootRequests.Parsed p = RebootRequests.parse(Map.of(annotation, value));
        assertThat(p.requests()).singleElement().satisfies(r -> {
            assertThat(r.annotation()).isEqualTo(annotation);
            assertThat(r.key()).isEqualTo(key.equals("-") ? Optional.empty() : Optional.of(key));
            assertThat(r.mode()).isEqualTo(mode);
        });
        if (problem.equals("-")) {
            assertThat(p.problems()).isEmpty();
        } else {
            assertThat(p.problems()).singleElement().asString().contains(annotation).contains(problem)
                    .contains("treated as soft");
        }
    }

    @ParameterizedTest(name = "''{0}'' is not a reboot request")
    @CsvSource({"reboot.metal3.iox", "reboot.metal3.io.extra/x", "other.io/reboot.metal3.io", "Reboot.metal3.io",
        "metal3.io/reboot"})
    @DisplayName("annotations that merely resemble the reboot annotation are ignored without a problem")
    void notRequests(String annotation) {
        RebootRequests.Parsed p = RebootRequests.parse(Map.of(annotation, "{\"mode\":\"hard\"}"));
        assertThat(p.requests()).isEmpty();
        assertThat(p.problems()).isEmpty();
    }

    @Test
    @DisplayName("a keyed annotation with an empty key is reported and ignored, so it never holds a host off")
    void emptyKey() {
        RebootRequests.Parsed p = RebootRequests.parse(Map.of("reboot.metal3.io/", ""));
        assertThat(p.requests()).isEmpty();
        assertThat(p.problems()).singleElement().asString().contains("empty key");
        RebootDecision d = RebootRequests.decide(new HostSnapshot(Map.of("reboot.metal3.io/", ""), true,
                ProvisioningState.PROVISIONED, false, opt("100"), opt("200")), t("1000"));
        assertThat(d.powerOn()).isTrue();
        assertThat(d.problems()).hasSize(1);
    }

    @Test
    @DisplayName("requests are sorted by annotation, problems are listed, and the mode is hard if any asks hard")
    void parsedOrderAndMode() {
        RebootRequests.Parsed p = RebootRequests.parse(Map.of(
                "reboot.metal3.io/zeta", "", "reboot.metal3.io/alpha", "{\"mode\":\"hard\"}", U, "oops"));
        assertThat(p.requests()).extracting(RebootRequest::annotation)
                .containsExactly(U, "reboot.metal3.io/alpha", "reboot.metal3.io/zeta");
        assertThat(p.mode()).isEqualTo(RebootMode.HARD);
        assertThat(p.anyKeyed()).isTrue();
        assertThat(p.problems()).hasSize(1);
        assertThat(RebootRequests.parse(Map.of(U, "")).mode()).isEqualTo(RebootMode.SOFT);
        assertThat(RebootRequests.parse(Map.of(U, "")).anyKeyed()).isFalse();
    }

    @Test
    @DisplayName("a decision reports the malformed requests it read")
    void decisionCarriesProblems() {
        RebootDecision d = RebootRequests.decide(new HostSnapshot(annotations("a!"), true,
                ProvisioningState.PROVISIONED, true, opt("100"), opt("-")), t("1000"));
        assertThat(d.problems()).singleElement().asString().contains("reboot.metal3.io/a");
        assertThat(d.requests()).hasSize(1);
    }

    @Test
    @DisplayName("a last power on at or after now (a clock that went backwards) does not start a reboot")
    void clockSkew() {
        RebootDecision d = RebootRequests.decide(new HostSnapshot(annotations("u"), true,
                ProvisioningState.PROVISIONED, true, opt("2000"), opt("-")), t("1000"));
        assertThat(d.powerOn()).isTrue();
        assertThat(d.rebootPending()).isFalse();
        assertThat(d.reason()).contains("clock");
    }

    @ParameterizedTest(name = "isPending(any={0}, last={1}, since={2}) = {3}")
    @CsvSource({
        "false, 100, 200, false", "true, -, -, false", "true, 100, -, false", "true, -, 200, true",
        "true, 100, 200, true", "true, 200, 200, false", "true, 300, 200, false"})
    @DisplayName("a reboot is pending exactly when a request exists and the host has not powered on since it")
    void pendingTable(boolean any, String last, String since, boolean expected) {
        assertThat(RebootRequests.isPending(any, opt(last), opt(since))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} asked at 0, timeout {1}s, now {2}s -> {3}")
    @CsvSource({"SOFT, 120, 0, SOFT", "SOFT, 120, 119, SOFT", "SOFT, 120, 120, HARD", "SOFT, 120, 500, HARD",
        "HARD, 120, 0, HARD", "HARD, 120, 500, HARD"})
    @DisplayName("a soft power off falls back to hard once the soft timeout has passed")
    void softFallsBackToHard(RebootMode requested, long timeout, long now, RebootMode expected) {
        assertThat(RebootRequests.modeAt(requested, T0, Duration.ofSeconds(timeout), T0.plusSeconds(now)))
                .isEqualTo(expected);
    }

    @Test
    @DisplayName("invalid inputs are refused with the field named")
    void validation() {
        assertThatThrownBy(() -> RebootRequests.modeAt(RebootMode.SOFT, T0, Duration.ZERO, T0))
                .hasMessageContaining("softTimeout");
        assertThatThrownBy(() -> new HostSnapshot(null, true, ProvisioningState.PROVISIONED, true, Optional.empty(),
                Optional.empty())).hasMessageContaining("annotations");
        Map<String, String> withNull = new HashMap<>();
        withNull.put(U, null);
        assertThatThrownBy(() -> new HostSnapshot(withNull, true, ProvisioningState.PROVISIONED, true,
                Optional.empty(), Optional.empty())).hasMessageContaining(U);
        assertThatThrownBy(() -> new HostSnapshot(Map.of(), true, null, true, Optional.empty(), Optional.empty()))
                .hasMessageContaining("provisioningState");
        assertThatThrownBy(() -> new RebootRequest(U, Optional.of(""), RebootMode.SOFT)).hasMessageContaining("key");
        assertThatThrownBy(() -> RebootRequests.decide(null, T0)).hasMessageContaining("host");
    }

    @Test
    @DisplayName("the host snapshot copies its annotations")
    void snapshotCopies() {
        Map<String, String> m = new HashMap<>(Map.of(U, ""));
        HostSnapshot h = new HostSnapshot(m, true, ProvisioningState.PROVISIONED, true, Optional.empty(),
                Optional.empty());
        m.clear();
        assertThat(h.annotations()).containsKey(U);
    }

    @Test
    @DisplayName("an unkeyed request power-cycles the host once and is removed as power is restored")
    void unkeyedLifecycle() {
        Host h = new Host();
        h.annotations.put(U, "");
        h.run(1000, 20);
        assertThat(h.powerCycles).isEqualTo(1);
        assertThat(h.on).isTrue();
        assertThat(h.annotations).doesNotContainKey(U);
        assertThat(h.lastPoweredOn.get()).isAfter(h.pendingSince.get());
    }

    @Test
    @DisplayName("keyed requests hold the host off until the last one is removed, then it powers on once")
    void keyedLifecycle() {
        Host h = new Host();
        h.annotations.put("reboot.metal3.io/a", "");
        h.annotations.put("reboot.metal3.io/b", "{\"mode\":\"hard\"}");
        h.annotations.put(U, "");
        h.run(1000, 10);
        assertThat(h.on).isFalse();
        assertThat(h.lastMode).isEqualTo(RebootMode.HARD);
        assertThat(h.annotations).containsKeys(U, "reboot.metal3.io/a", "reboot.metal3.io/b");
        h.annotations.remove("reboot.metal3.io/b");
        h.run(2000, 10);
        assertThat(h.on).as("still held by a").isFalse();
        h.annotations.remove("reboot.metal3.io/a");
        h.run(3000, 10);
        assertThat(h.on).isTrue();
        assertThat(h.powerCycles).isEqualTo(1);
        assertThat(h.annotations).doesNotContainKey(U);
        h.run(4000, 10);
        assertThat(h.powerCycles).as("no second reboot").isEqualTo(1);
    }

    @Test
    @DisplayName("a request after a completed reboot starts a new one")
    void secondRequest() {
        Host h = new Host();
        h.annotations.put(U, "");
        h.run(1000, 10);
        h.annotations.put(U, "");
        h.run(2000, 10);
        assertThat(h.powerCycles).isEqualTo(2);
        assertThat(h.annotations).doesNotContainKey(U);
    }

    /** A host whose power follows the decision one evaluation later; each evaluation is one second. */
    private static final class Host {
        final Map<String, String> annotations = new HashMap<>();
        boolean on = true;
        Optional<Instant> lastPoweredOn = Optional.of(T0);
        Optional<Instant> pendingSince = Optional.empty();
        int powerCycles;
        RebootMode lastMode;

        void run(long from, int evaluations) {
            for (long s = from; s < from + evaluations; s++) {
                Instant now = T0.plusSeconds(s);
                RebootDecision d = RebootRequests.decide(new HostSnapshot(annotations, true,
                        ProvisioningState.PROVISIONED, on, lastPoweredOn, pendingSince), now);
                d.removeAnnotations().forEach(annotations::remove);
                pendingSince = d.pendingRebootSince();
                if (on && !d.powerOn()) {
                    on = false;
                    lastMode = d.mode();
                } else if (!on && d.powerOn()) {
                    on = true;
                    powerCycles++;
                    lastPoweredOn = Optional.of(now.plusMillis(500));
                }
            }
        }
    }
}
