package dev.remedy.cli;

import dev.remedy.core.policy.PolicyConfigurationException;
import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.core.policy.PolicySet;
import dev.remedy.simulation.PolicySimulation;
import dev.remedy.simulation.Scenario;
import dev.remedy.simulation.ScenarioException;
import dev.remedy.simulation.ScenarioReader;
import dev.remedy.simulation.SimulationOptions;
import dev.remedy.simulation.Timeline;
import dev.remedy.simulation.TimelineEntry;
import dev.remedy.spi.config.ConfigProblem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code remedy simulate POLICY SCENARIO}: runs remedy policies against a simulated cluster on fake time and prints
 * the timeline, one line per entry: time from the start, node, what happened (with the remedy), and why. A bad
 * policy or scenario file is one line naming every problem with its path, exit code {@link ExitCodes#BAD_INPUT}.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Run policies against a simulated cluster scenario and print the timeline.")
final class SimulateCommand implements Callable<Integer> {

    @ParentCommand
    private RemedyCli cli;

    @Parameters(index = "0", paramLabel = "POLICY", description = "the policy file (YAML or JSON)")
    private Path policyFile;

    @Parameters(index = "1", paramLabel = "SCENARIO", description = "the scenario file (YAML or JSON)")
    private Path scenarioFile;

    @Option(names = "--no-storm-protection", description = "admit every remediation, ignoring the policies' storm settings")
    private boolean noStormProtection;

    @Option(names = "--verbose", description = "print stack traces of errors")
    private boolean verbose;

    @Override
    public Integer call() {
        PolicySet policies;
        try {
            policies = new PolicyLoader().load(policyFile);
        } catch (PolicyConfigurationException e) {
            throw new UserError("invalid policies: " + oneLine(e.issues()));
        }
        Scenario scenario;
        try {
            scenario = new ScenarioReader().read(scenarioFile);
        } catch (ScenarioException e) {
            throw new UserError("invalid scenario: " + oneLine(e.issues()));
        }
        SimulationOptions.Builder options = SimulationOptions.custom();
        if (noStormProtection) {
            options.noStormProtection();
        }
        Timeline timeline = PolicySimulation.run(policies.policies(), scenario, options.build());
        PrintWriter out = cli.environment().out();
        for (TimelineEntry entry : timeline.entries()) {
            out.println(entry);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static String oneLine(List<ConfigProblem> issues) {
        return issues.stream().map(ConfigProblem::toString).collect(Collectors.joining("; "));
    }
}
