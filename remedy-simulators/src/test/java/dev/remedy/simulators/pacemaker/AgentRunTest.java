package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Agent runs read from the fencer's log (Pacemaker 2.1.5)")
class AgentRunTest {

    // Lines of a real pacemaker-fenced log: a level that timed out, one that failed, one that fenced.
    private static final String LOG = """
            Nov 26 06:03:47.752 vm pacemaker-fenced    [31766] (request_peer_fencing) \tnotice: Requesting that \
            node0 perform 'off' action targeting node5 using hole | for client stonith_admin.31866 (4s)
            Nov 26 06:03:51.756 vm pacemaker-fenced    [31766] (log_async_result) \terror: Operation 'off' [31867] \
            targeting node5 using hole could not be executed: Timed Out (Fence agent did not complete within 4s) \
            | call 2 from stonith_admin.31866
            Nov 26 06:03:04.328 vm pacemaker-fenced    [22350] (log_async_result) \terror: Operation 'off' [30203] \
            targeting node4 using bad returned 1 | call 2 from stonith_admin.30199
            Nov 26 06:03:06.464 vm pacemaker-fenced    [22350] (log_async_result) \tnotice: Operation 'off' [30206] \
            targeting node4 using good returned 0 | call 2 from stonith_admin.30199
            Nov 26 06:03:06.464 vm pacemaker-fenced    [22350] (finalize_op) \tnotice: Operation 'off' targeting \
            node4 by node0 for stonith_admin.30199@node0: OK (complete) | id=9c25ab6f
            """;

    @Test
    @DisplayName("each run names its action, pid, node and device, and its exit code or why it did not complete")
    void runs() {
        assertThat(AgentRun.parse(LOG)).containsExactly(
                new AgentRun("off", 31867, "node5", "hole", AgentRun.NOT_COMPLETED,
                        "Timed Out (Fence agent did not complete within 4s)"),
                new AgentRun("off", 30203, "node4", "bad", 1, ""),
                new AgentRun("off", 30206, "node4", "good", 0, ""));
    }

    @Test
    @DisplayName("only an exit code of 0 is a success")
    void succeeded() {
        assertThat(AgentRun.parse(LOG)).extracting(AgentRun::succeeded).containsExactly(false, false, true);
    }

    @Test
    @DisplayName("a log without agent runs gives none")
    void none() {
        assertThat(AgentRun.parse("Nov 26 (main) notice: Pacemaker fencer successfully started\n")).isEmpty();
    }
}
