package dev.remedy.cli;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigFileException;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.DocumentException;
import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.core.policy.PolicySet;
import dev.remedy.core.topology.FenceConfiguration;
import dev.remedy.core.topology.FenceConfigurationLoader;
import dev.remedy.fence.snmp.SnmpProfiles;
import dev.remedy.fence.ssh.DeviceProfiles;
import dev.remedy.simulation.Scenario;
import dev.remedy.simulation.ScenarioReader;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code remedy check FILE…}: reads fence configurations, policies, scenarios and device profiles as remedy would
 * and prints {@code OK file: what it holds} (and a {@code warning:} line for what is valid but weak) on stdout for each
 * valid file, and for each other file
 * {@code FAILED file: kind, N problems:} and every problem with its file and path on stderr; exit code 0 when every
 * file is valid, {@link ExitCodes#BAD_INPUT} otherwise. A file is recognised by its content, or named with an
 * option. Nothing is fenced, and no secret is read.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check fence configurations, policies, scenarios and device profiles before applying them: "
                + "every problem, with its file and path.",
        footer = {"", "Each FILE is recognised by its content; name a file's kind with an option instead.",
                "Exit codes: 0 every file is valid, 3 a file has problems."})
final class CheckCommand implements Callable<Integer> {

    /** What a file holds. */
    private enum Kind {
        FENCE("fence configuration"), POLICIES("policies"), SCENARIO("scenario"), PROFILES("device profiles"),
        SNMP_PROFILES("SNMP device profiles");

        private final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    @ParentCommand
    private RemedyCli cli;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "a file to check, recognised by its content")
    private List<Path> files = new ArrayList<>();

    @Option(names = "--fence-config", paramLabel = "FILE", description = "a fence configuration")
    private List<Path> fenceConfigurations = new ArrayList<>();

    @Option(names = "--policies", paramLabel = "FILE", description = "a file of policies")
    private List<Path> policies = new ArrayList<>();

    @Option(names = "--scenario", paramLabel = "FILE", description = "a simulation scenario")
    private List<Path> scenarios = new ArrayList<>();

    @Option(names = "--profiles", paramLabel = "FILE", description = "a file of SSH device profiles (YAML)")
    private List<Path> profiles = new ArrayList<>();

    @Option(names = "--snmp-profiles", paramLabel = "FILE", description = "a file of SNMP device profiles (YAML)")
    private List<Path> snmpProfiles = new ArrayList<>();

    @Override
    public Integer call() {
        int total = files.size() + fenceConfigurations.size() + policies.size() + scenarios.size() + profiles.size()
                + snmpProfiles.size();
        if (total == 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give at least one FILE to check");
        }
        int failed = 0;
        for (Path file : fenceConfigurations) {
            failed += check(file, Optional.of(Kind.FENCE)) ? 0 : 1;
        }
        for (Path file : policies) {
            failed += check(file, Optional.of(Kind.POLICIES)) ? 0 : 1;
        }
        for (Path file : scenarios) {
            failed += check(file, Optional.of(Kind.SCENARIO)) ? 0 : 1;
        }
        for (Path file : profiles) {
            failed += check(file, Optional.of(Kind.PROFILES)) ? 0 : 1;
        }
        for (Path file : snmpProfiles) {
            failed += check(file, Optional.of(Kind.SNMP_PROFILES)) ? 0 : 1;
        }
        for (Path file : files) {
            failed += check(file, Optional.empty()) ? 0 : 1;
        }
        PrintWriter err = cli.environment().err();
        if (failed > 0) {
            err.println("remedy: " + failed + " of " + count(total, "file", "files") + (failed == 1 ? " has" : " have")
                    + " problems");
        }
        cli.environment().out().flush();
        err.flush();
        return failed == 0 ? ExitCodes.OK : ExitCodes.BAD_INPUT;
    }

    /** Checks {@code file} as {@code kind}, or as what its content says; prints the outcome; whether it is valid. */
    private boolean check(Path file, Optional<Kind> kind) {
        Optional<Kind> as = kind;
        try {
            if (as.isEmpty()) {
                as = Optional.of(recognise(file));
            }
            List<String> warnings = new ArrayList<>();
            cli.environment().out().println("OK " + file + ": " + summary(file, as.get(), warnings));
            warnings.forEach(warning -> cli.environment().out().println("  warning: " + warning));
            return true;
        } catch (ConfigFileException e) {
            print(file, as, e.issues());
        } catch (DocumentException e) {
            print(file, as, List.of(ConfigProblem.in(file.toString(), "", e.getMessage())));
        }
        return false;
    }

    private void print(Path file, Optional<Kind> kind, List<ConfigProblem> problems) {
        PrintWriter err = cli.environment().err();
        err.println("FAILED " + file + ": " + kind.map(k -> k.label + ", ").orElse("")
                + count(problems.size(), "problem", "problems") + ":");
        problems.forEach(problem -> err.println("  " + problem));
    }

    /** What {@code file} holds, by its keys. */
    private static Kind recognise(Path file) {
        ConfigNode root = ConfigDocuments.read(file);
        if (root.isMissingNode() || root.isNull()) {
            throw new DocumentException("the document is empty; give a fence configuration, policies, a scenario or "
                    + "device profiles");
        }
        ConfigNode nodes = root.get("nodes");
        ConfigNode apiVersion = root.get("apiVersion");
        if (root.has("templates") || root.has("topologies")) {
            return Kind.FENCE;
        }
        if (root.has("policies") || root.has("thresholdConfigs") || root.has("remedyConfigs")
                || apiVersion != null && apiVersion.isTextual() && List.of(PolicyLoader.API_VERSION,
                PolicyLoader.NODE_REMEDY_API_VERSION).contains(apiVersion.asText())) {
            return Kind.POLICIES;
        }
        if (root.has("profiles")) {
            return snmp(root.get("profiles")) ? Kind.SNMP_PROFILES : Kind.PROFILES;
        }
        if (root.has("events") || root.has("run_for") || root.has("settings") || root.has("bmc")
                || nodes != null && (nodes.isNumber() || nodes.isArray())) {
            return Kind.SCENARIO;
        }
        if (nodes != null) {
            return Kind.FENCE;
        }
        throw new DocumentException("cannot tell what this file is: it has none of the keys of a fence "
                + "configuration (templates, topologies), policies (policies, thresholdConfigs, apiVersion), a "
                + "scenario (nodes, events, run_for) or device profiles (profiles); name its kind with "
                + "--fence-config, --policies, --scenario, --profiles or --snmp-profiles");
    }

    /** Whether a list of profiles is of SNMP ones: an entry chooses between tables, or reads its status by OID. */
    private static boolean snmp(ConfigNode profiles) {
        return profiles.isArray() && profiles.elements().stream().anyMatch(entry -> entry.isObject()
                && (entry.has("choose") || entry.get("status") != null && entry.get("status").isObject()
                && entry.get("status").has("oid")));
    }

    /**
     * Reads {@code file} as {@code kind}: what it holds, as in {@code fence configuration, 2 nodes, …}; adds what is
     * valid but weak to {@code warnings}.
     */
    private String summary(Path file, Kind kind, List<String> warnings) {
        return switch (kind) {
            case FENCE -> {
                FenceConfiguration config = new FenceConfigurationLoader().load(file, cli.environment().registry());
                warnings.addAll(config.warnings());
                yield kind.label + ", " + count(config.nodeNames().size(), "node", "nodes") + ", "
                        + count(config.topologyNames().size(), "topology", "topologies") + ", "
                        + count(config.templateNames().size(), "template", "templates");
            }
            case POLICIES -> {
                PolicySet set = new PolicyLoader().load(file);
                yield kind.label + ", " + count(set.names().size(), "policy", "policies") + " ("
                        + String.join(", ", set.names()) + ")";
            }
            case SCENARIO -> {
                Scenario scenario = new ScenarioReader().read(file);
                yield kind.label + " '" + scenario.name() + "', " + count(scenario.nodes().size(), "node", "nodes")
                        + ", " + count(scenario.events().size(), "event", "events") + ", runs "
                        + Durations.format(scenario.duration());
            }
            case SNMP_PROFILES -> {
                List<String> names = SnmpProfiles.check(file);
                yield kind.label + ", " + count(names.size(), "profile", "profiles") + " (" + String.join(", ", names)
                        + ")";
            }
            case PROFILES -> {
                List<String> names = DeviceProfiles.check(file);
                yield kind.label + ", " + count(names.size(), "profile", "profiles") + " (" + String.join(", ", names)
                        + ")";
            }
        };
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
