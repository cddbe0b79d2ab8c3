package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy agents")
class AgentsCommandTest {

    private static FenceAgentRegistry duplicateFake() {
        return FenceAgentRegistry.of(new FakeFenceAgentProvider(),
                new StubFenceAgentProvider("fake", r -> FenceOutcome.succeeded(PowerState.ON, "stub")));
    }

    @Test
    @DisplayName("lists the fake agent with its actions and parameters, and exits 0")
    void listsTheFakeAgent() {
        CliRunner.Result result = new CliRunner().run("agents");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("fake - simulated power switch")
                .contains("actions: on, off, reboot, status, list, monitor");
        assertThat(result.outLines()).contains("  kind: power (OFF stops the machine, STATUS OFF proves it, ON powers it)");
        assertThat(result.outLines()).anySatisfy(l -> assertThat(l.trim()).startsWith("plug ")
                .contains("string").contains("required"));
        assertThat(result.outLines()).anySatisfy(l -> assertThat(l.trim()).startsWith("password ")
                .contains("required").contains("secret"));
        assertThat(result.outLines()).anySatisfy(l -> assertThat(l.trim()).startsWith("username ")
                .contains("default admin"));
        assertThat(result.outLines()).anySatisfy(l -> assertThat(l.trim()).startsWith("login_timeout ")
                .contains("duration").contains("default 5s"));
        assertThat(result.outLines()).anySatisfy(l -> assertThat(l.trim()).startsWith("poll_interval ")
                .contains("default 1s"));
        assertThat(result.err()).isEmpty();
    }

    @Test
    @DisplayName("prints each agent's fencing kind with what its actions mean, after its actions")
    void printsTheFencingKind() {
        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.of(
                new KindProvider("san-switch", FencingKind.FABRIC, EnumSet.of(FenceAction.OFF, FenceAction.ON,
                        FenceAction.STATUS)),
                new KindProvider("sysrq", FencingKind.SOFT, EnumSet.of(FenceAction.REBOOT, FenceAction.STATUS))))
                .run("agents");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).containsSubsequence("san-switch - " + FencingKind.FABRIC + " test agent",
                "  actions: on, off, status", "  kind: fabric (OFF isolates, ON un-fences, no REBOOT)");
        assertThat(result.outLines()).containsSubsequence("sysrq - " + FencingKind.SOFT + " test agent",
                "  actions: reboot, status",
                "  kind: soft (REBOOT through the node's own system, no OFF or ON, no proof it is off)");
    }

    @Test
    @DisplayName("lists the agents ServiceLoader finds on the class path, the fake one included")
    void listsDiscoveredAgents() {
        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.load()).run("agents");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).contains("fake - " + new FakeFenceAgentProvider().description());
    }

    @Test
    @DisplayName("reports a type id claimed by two providers, naming both classes, and exits 3")
    void reportsDuplicates() {
        CliRunner.Result result = new CliRunner().registry(duplicateFake()).run("agents");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("discovery problems")
                .contains(FakeFenceAgentProvider.class.getName())
                .contains(StubFenceAgentProvider.class.getName());
        assertThat(result.errLines()).anySatisfy(l -> assertThat(l).contains("DUPLICATE").contains("fake"));
        assertThat(result.out()).as("neither claimant is listed as usable").doesNotContain("fake - ")
                .doesNotContain("no fence agent found");
    }

    /** An agent of the given kind and actions that does nothing. */
    private record KindProvider(String type, FencingKind fencingKind, Set<FenceAction> supportedActions)
            implements FenceAgentProvider {

        @Override
        public String description() {
            return fencingKind + " test agent";
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return List.of();
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            return (request, context) -> FenceOutcome.refused("test agent does nothing");
        }
    }

    @Test
    @DisplayName("says that no agent was found when the registry is empty, and exits 0")
    void emptyRegistry() {
        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.of()).run("agents");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("no fence agent found on the class path");
    }

    @Test
    @DisplayName("fence refuses a duplicated type id in one line naming both classes, and exits 3")
    void fenceRefusesDuplicate() {
        CliRunner.Result result = new CliRunner().registry(duplicateFake()).variable("PW", "pw")
                .run("fence", "fake", "status", "-p", "plug=" + CliRunner.uniquePlug(), "--secret-env", "password=PW");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).singleElement().asString()
                .contains(FakeFenceAgentProvider.class.getName())
                .contains(StubFenceAgentProvider.class.getName());
        assertThat(result.out()).isEmpty();
    }

    @Test
    @DisplayName("with a type, that agent alone")
    void oneType() {
        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.of(new FakeFenceAgentProvider(),
                new KindProvider("sysrq", FencingKind.SOFT, EnumSet.of(FenceAction.REBOOT)))).run("agents", "sysrq");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("sysrq - ").doesNotContain("fake - ");
    }
}
