package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.clusterlabs.ClusterLabsFenceAgentProvider;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remedy fence fence-agents ACTION -p agent=fence_ipmilan …}: the command reads the parameters of the
 * ClusterLabs agent the {@code agent} value names, and runs it against OpenIPMI's {@code ipmi_sim}.
 */
@DisplayName("remedy fence with the fence-agents agent and fence_ipmilan")
class FenceAgentsCommandIT {

    @TempDir
    static Path work;

    private static IpmiSimProcess sim;

    @BeforeAll
    static void start() {
        PeerPrograms.require("fence_ipmilan", "fence-agents");
        PeerPrograms.require("ipmi_sim", "openipmi");
        sim = IpmiSimProcess.start(work);
    }

    @AfterAll
    static void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    private CliRunner.Result fence(String action, String... more) {
        CliRunner cli = new CliRunner().variable("BMC_PASSWORD", sim.password())
                .registry(FenceAgentRegistry.of(new ClusterLabsFenceAgentProvider()));
        String[] head = {"fence", "fence-agents", action, "-p", "agent=fence_ipmilan", "-p", "ip=" + sim.host(), "-p",
            "ipport=" + sim.port(), "-p", "username=" + sim.user(), "-p", "lanplus=1", "-p", "cipher=3"};
        String[] args = new String[head.length + more.length];
        System.arraycopy(head, 0, args, 0, head.length);
        System.arraycopy(more, 0, args, head.length, more.length);
        return cli.run(args);
    }

    @Test
    @DisplayName("off is confirmed by status, and status then exits 2")
    void offThenStatus() {
        sim.powerTarget().power(PowerState.ON);

        CliRunner.Result off = fence("off", "--secret-env", "password=BMC_PASSWORD");

        assertThat(off.exitCode()).as(off.toString()).isEqualTo(ExitCodes.OK);
        assertThat(off.out()).contains("OFF succeeded: power OFF", "confirmed: status reads OFF");
        assertThat(sim.powerTarget().power()).isEqualTo(PowerState.OFF);
        CliRunner.Result status = fence("status", "--secret-env", "password=BMC_PASSWORD");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.STATUS_OFF);
        assertThat(status.outLines()).first().isEqualTo("Status: OFF");
    }

    @Test
    @DisplayName("the agent's password is refused on the command line, and a parameter fence_ipmilan lacks is named")
    void badInput() {
        CliRunner.Result secret = fence("status", "-p", "password=" + sim.password());
        assertThat(secret.exitCode()).as(secret.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(secret.err()).contains("parameter 'password' is secret").doesNotContain(sim.password());

        CliRunner.Result unknown = fence("status", "-p", "lanplsu=1", "--secret-env", "password=BMC_PASSWORD");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unknown.err()).contains("parameter 'lanplsu': is not a parameter of agent 'fence-agents'",
                "did you mean 'lanplus'?");
    }

    @Test
    @DisplayName("'remedy agents fence-agents agent=fence_ipmilan' lists fence_ipmilan's parameters, secrets marked")
    void agentsListsTheChosenAgent() {
        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.of(new ClusterLabsFenceAgentProvider()))
                .run("agents", "fence-agents", "agent=fence_ipmilan");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out()).startsWith("fence-agents - ClusterLabs fence_ipmilan");
        assertThat(result.outLines()).anySatisfy(l -> assertThat(l.trim()).startsWith("ip ").contains("string"))
                .anySatisfy(l -> assertThat(l.trim()).startsWith("password ").contains("secret"))
                .anySatisfy(l -> assertThat(l.trim()).startsWith("lanplus ").contains("boolean"));
    }
}
