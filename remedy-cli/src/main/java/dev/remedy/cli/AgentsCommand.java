package dev.remedy.cli;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code remedy agents [TYPE [KEY=VALUE…]]}: the discovered agents, their actions, fencing kind and parameters, and
 * any discovery problem; one agent alone, and with values that choose what it is (the ClusterLabs agent of
 * {@code fence-agents}) the parameters of the agent they choose.
 */
@Command(name = "agents", mixinStandardHelpOptions = true, description = {
    "List the discovered fence agents with their parameters.",
    "With TYPE, that agent alone; with KEY=VALUE values that choose what the agent is, the parameters of what they "
            + "choose: 'remedy agents fence-agents agent=fence_aws' lists fence_aws's."})
final class AgentsCommand implements Callable<Integer> {

    @ParentCommand
    private RemedyCli cli;

    @Option(names = "--verbose", description = "print stack traces of errors")
    private boolean verbose;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TYPE", description = "only this agent")
    private String type;

    @Parameters(index = "1..*", paramLabel = "KEY=VALUE", description = "values that choose what the agent is, such "
            + "as agent=fence_aws for fence-agents")
    private List<String> values = new ArrayList<>();

    @Override
    public Integer call() {
        CliEnvironment env = cli.environment();
        if (type != null) {
            FenceAgentProvider provider = env.registry().provider(type).specialise(values());
            print(env.out(), provider);
            return ExitCodes.OK;
        }
        FenceAgentRegistry registry = env.registry();
        PrintWriter out = env.out();
        if (registry.providers().isEmpty()) {
            out.println(registry.isClean() ? "no fence agent found on the class path"
                    : "no usable fence agent: see the discovery problems");
        }
        for (FenceAgentProvider provider : registry.providers()) {
            print(out, provider);
        }
        if (!registry.isClean()) {
            env.err().println("remedy: discovery problems (these agents cannot be used):");
            registry.report().lines().filter(l -> !l.startsWith("loaded"))
                    .forEach(l -> env.err().println("  " + l));
            return ExitCodes.BAD_INPUT;
        }
        return ExitCodes.OK;
    }

    /** The KEY=VALUE values, in order. */
    private Map<String, String> values() {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String value : values) {
            int equals = value.indexOf('=');
            if (equals <= 0) {
                throw new UserError("agents: '" + value + "' is not KEY=VALUE; give values that choose what the agent "
                        + "is, such as 'remedy agents fence-agents agent=fence_aws'");
            }
            parsed.put(value.substring(0, equals), value.substring(equals + 1));
        }
        return parsed;
    }

    private static void print(PrintWriter out, FenceAgentProvider provider) {
        out.println(provider.type() + " - " + provider.description());
        out.println("  actions: " + provider.supportedActions().stream().sorted().map(FenceAction::code)
                .collect(Collectors.joining(", ")));
        out.println("  kind: " + describe(provider.fencingKind()));
        out.println("  parameters:");
        for (ParameterDescriptor p : provider.parameters()) {
            List<String> traits = new ArrayList<>();
            traits.add(p.type().name().toLowerCase(Locale.ROOT));
            if (p.required()) {
                traits.add("required");
            }
            p.defaultValue().ifPresent(d -> traits.add("default " + d));
            if (p.secret()) {
                traits.add("secret");
            }
            if (!p.allowedValues().isEmpty()) {
                traits.add("one of " + String.join("|", p.allowedValues()));
            }
            p.fenceAgentsName().ifPresent(n -> traits.add(n.equals(p.name()) ? "fence-agents option" : "fence-agents: " + n));
            out.printf(Locale.ROOT, "    %-16s %s%n    %-16s %s%n", p.name(), String.join(", ", traits), "",
                    p.description());
        }
        out.flush();
    }

    /** The kind's code and what its actions do, in a few words. */
    private static String describe(FencingKind kind) {
        String meaning = switch (kind) {
            case POWER -> "OFF stops the machine, STATUS OFF proves it, ON powers it";
            case FABRIC -> "OFF isolates, ON un-fences, no REBOOT";
            case SOFT -> "REBOOT through the node's own system, no OFF or ON, no proof it is off";
            case SELF -> "OFF asks the node to reset itself, STATUS OFF once it must have (assumed), ON withdraws";
        };
        return kind.code() + " (" + meaning + ")";
    }
}
