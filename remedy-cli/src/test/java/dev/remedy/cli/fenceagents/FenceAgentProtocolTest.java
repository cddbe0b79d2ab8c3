package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("fence_remedy_fake speaks the fence-agents protocol")
class FenceAgentProtocolTest {

    private static final String PASSWORD = "pw-" + UUID.randomUUID();

    private final FakeTimeSource time = new FakeTimeSource();
    private final FakePowerLab lab = new FakePowerLab();
    private final FenceAgentRegistry registry = FenceAgentRegistry.of(new FakeFenceAgentProvider(lab));
    private final String plug = "node-" + UUID.randomUUID();

    private record Result(int exitCode, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Result call(String stdin, String... args) throws InterruptedException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> command = new ArrayList<>(List.of("--type", "fake", "--"));
        command.addAll(List.of(args));
        int code = new FenceAgentProtocol(registry, time, new PrintWriter(out), new PrintWriter(err))
                .main(command, new StringReader(stdin));
        Result result = new Result(code, out.toString(), err.toString());
        assertThat(result.out() + result.err()).as("no secret printed").doesNotContain(PASSWORD);
        return result;
    }

    private String pacemaker(String action) {
        return "action=" + action + "\nport=" + plug + "\nnodename=" + plug + "\nnodeid=3\npassword=" + PASSWORD
                + "\n";
    }

    @Test
    @DisplayName("status on stdin, as Pacemaker sends it: 'Status: ON' and 0, 'Status: OFF' and 2")
    void status() throws Exception {
        Result on = call(pacemaker("status"));
        lab.target(plug, time).power(PowerState.OFF);
        Result off = call(pacemaker("status"));

        assertThat(on.exitCode()).as(on.toString()).isEqualTo(0);
        assertThat(on.out()).isEqualTo("Status: ON\n");
        assertThat(on.err()).as("nodename, nodeid and port are no reason to warn").isEmpty();
        assertThat(off.exitCode()).as(off.toString()).isEqualTo(2);
        assertThat(off.out()).isEqualTo("Status: OFF\n");
    }

    @Test
    @DisplayName("off, then on: each confirmed, 'Success: Powered OFF' / 'Success: Powered ON' and 0")
    void offThenOn() throws Exception {
        Result off = call(pacemaker("off"));
        PowerState afterOff = lab.target(plug, time).power();
        Result on = call(pacemaker("on"));

        assertThat(off.exitCode()).as(off.toString()).isEqualTo(0);
        assertThat(off.out()).isEqualTo("Success: Powered OFF\n");
        assertThat(afterOff).isEqualTo(PowerState.OFF);
        assertThat(on.exitCode()).as(on.toString()).isEqualTo(0);
        assertThat(on.out()).isEqualTo("Success: Powered ON\n");
        assertThat(lab.target(plug, time).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("reboot, the default action, is OFF then ON: the target's history shows both")
    void reboot() throws Exception {
        lab.target(plug, time).clearHistory();

        Result reboot = call("port=" + plug + "\npassword=" + PASSWORD + "\n");

        assertThat(reboot.exitCode()).as(reboot.toString()).isEqualTo(0);
        assertThat(reboot.out()).isEqualTo("Success: Rebooted\n");
        assertThat(lab.target(plug, time).history()).containsSubsequence(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("a target that never answers: off fails with 1, never 0, and says it on stderr")
    void unreachable() throws Exception {
        Result off = call("action=off\nplug=" + FakePowerLab.UNREACHABLE_PREFIX + plug + "\npassword=" + PASSWORD
                + "\naction_timeout=10\n");

        assertThat(off.exitCode()).as(off.toString()).isEqualTo(1);
        assertThat(off.out()).isEmpty();
        assertThat(off.err()).contains("fence_remedy_fake: Failed: OFF");
    }

    @Test
    @DisplayName("the old names: option= for action, ipaddr/login/passwd style aliases are mapped")
    void oldNames() throws Exception {
        Result status = call("option=status\nport=" + plug + "\nlogin=admin\npasswd=" + PASSWORD + "\n");

        assertThat(status.exitCode()).as(status.toString()).isEqualTo(0);
        assertThat(status.out()).isEqualTo("Status: ON\n");
    }

    @Test
    @DisplayName("an unknown option is ignored with a warning that names it and not its value")
    void unknownOption() throws Exception {
        Result status = call(pacemaker("status") + "pasword=typo-" + PASSWORD + "\n");

        assertThat(status.exitCode()).as(status.toString()).isEqualTo(0);
        assertThat(status.err()).contains("warning: ignoring unknown option 'pasword'");
    }

    @Test
    @DisplayName("the command line works too, with -p for the password (warned as DISCOURAGED)")
    void commandLine() throws Exception {
        Result status = call("ignored=because-there-are-arguments", "-o", "status", "-n", plug, "-p", PASSWORD);

        assertThat(status.exitCode()).as(status.toString()).isEqualTo(0);
        assertThat(status.out()).isEqualTo("Status: ON\n");
        assertThat(status.err()).contains("DISCOURAGED: the secret option 'password' was given on the command line")
                .doesNotContain("ignored");
    }

    @Test
    @DisplayName("validate-all: 0 when valid; 1 with every problem on stderr when not, nothing sent")
    void validateAll() throws Exception {
        Result valid = call(pacemaker("validate-all"));
        Result invalid = call("action=validate-all\nlogin_timeout=soon\n");

        assertThat(valid.exitCode()).as(valid.toString()).isEqualTo(0);
        assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(1);
        assertThat(invalid.err()).contains("plug").contains("password").contains("login_timeout")
                .contains("validate-all failed");
        assertThat(lab.find(plug)).as("nothing was sent to a target").isEmpty();
    }

    @Test
    @DisplayName("list prints plug,alias lines; list-status adds the power state")
    void list() throws Exception {
        lab.target(plug, time).power(PowerState.OFF);

        Result list = call(pacemaker("list"));
        Result listStatus = call(pacemaker("list-status"));

        assertThat(list.outLines()).contains(plug + ",");
        assertThat(listStatus.outLines()).contains(plug + ",,OFF");
    }

    @Test
    @DisplayName("an unknown action fails with 1 and the actions the agent answers")
    void unknownAction() throws Exception {
        Result result = call(pacemaker("explode"));

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("Unrecognised action 'explode'").contains("reboot, status");
    }

    @Test
    @DisplayName("-o metadata needs no other option and prints the resource-agent document")
    void metadata() throws Exception {
        Result result = call("", "-o", "metadata");

        assertThat(result.exitCode()).isEqualTo(0);
        assertThat(result.out()).startsWith("<?xml").contains("<resource-agent name=\"fence_remedy_fake\">");
    }

    @Test
    @DisplayName("an agent whose parameters depend on a value (the fence-agents bridge's) reads the options again "
            + "with the parameters it describes")
    void specialised() throws Exception {
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider(lab);
        FenceAgentProvider bridge = new Specialising(fake);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = new FenceAgentProtocol(FenceAgentRegistry.of(bridge), time, new PrintWriter(out),
                new PrintWriter(err)).main(List.of("--type", "bridge"), new StringReader("agent=fake\n"
                + pacemaker("status")));

        assertThat(code).as(err.toString()).isEqualTo(0);
        assertThat(out.toString()).isEqualTo("Status: ON\n");
        assertThat(err.toString()).as("password and port are parameters of the specialised agent").isEmpty();
    }

    /** An agent with one parameter, {@code agent}, that describes the fake agent's parameters once it is given. */
    private record Specialising(FakeFenceAgentProvider fake) implements FenceAgentProvider {
        private static final ParameterDescriptor AGENT = ParameterDescriptor.builder("agent", ParameterType.STRING)
                .required().build();

        @Override
        public String type() {
            return "bridge";
        }

        @Override
        public String description() {
            return "an agent described by its 'agent' parameter";
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return List.of(AGENT);
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return fake.supportedActions();
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            return fake.create(config);
        }

        @Override
        public FenceAgentProvider specialise(Map<String, String> values) {
            Specialising base = this;
            return !"fake".equals(values.get("agent")) ? this : new FenceAgentProvider() {
                @Override
                public String type() {
                    return base.type();
                }

                @Override
                public String description() {
                    return base.description();
                }

                @Override
                public List<ParameterDescriptor> parameters() {
                    List<ParameterDescriptor> all = new ArrayList<>(fake.parameters());
                    all.add(AGENT);
                    return all;
                }

                @Override
                public Set<FenceAction> supportedActions() {
                    return fake.supportedActions();
                }

                @Override
                public FenceAgent create(AgentConfig config) {
                    return fake.create(config);
                }
            };
        }
    }

    @Test
    @DisplayName("a call without --type TYPE is refused with 1")
    void noType() throws Exception {
        StringWriter err = new StringWriter();
        int code = new FenceAgentProtocol(registry, time, new PrintWriter(new StringWriter()), new PrintWriter(err))
                .main(List.of("-o", "status"), new StringReader(""));

        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("expected --type TYPE");
    }
}
