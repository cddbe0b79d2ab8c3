package dev.remedy.cli;

import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a command reads from the world: environment variables, the clock, the agents, and where to print.
 * Tests build one with a fake clock and captured output.
 *
 * @param variables environment variables (for {@code --secret-env})
 * @param time      the clock of every action
 * @param all       every discovered agent, loaded when first asked for
 * @param ofType    the agents of one type, loaded alone (a one-shot action loads only its agent's classes), the same
 *                  registry each time for one type
 * @param out       results
 * @param err       progress, warnings and errors
 */
public record CliEnvironment(Map<String, String> variables, TimeSource time, Supplier<FenceAgentRegistry> all,
                             Function<String, FenceAgentRegistry> ofType, PrintWriter out, PrintWriter err) {

    /** An environment whose agents are exactly those of {@code registry}. */
    public CliEnvironment(Map<String, String> variables, TimeSource time, FenceAgentRegistry registry,
                          PrintWriter out, PrintWriter err) {
        this(variables, time, () -> registry, type -> registry, out, err);
    }

    /** The process environment, the system clock, ServiceLoader discovery and the console. */
    public static CliEnvironment system() {
        ClassLoader loader = CliEnvironment.class.getClassLoader();
        Supplier<FenceAgentRegistry> everyAgent = new Supplier<>() {
            private FenceAgentRegistry loaded;

            @Override
            public synchronized FenceAgentRegistry get() {
                if (loaded == null) {
                    loaded = FenceAgentRegistry.load(loader);
                }
                return loaded;
            }
        };
        Map<String, FenceAgentRegistry> byType = new ConcurrentHashMap<>();
        return new CliEnvironment(System.getenv(), TimeSource.system(), everyAgent,
                type -> byType.computeIfAbsent(type, t -> FenceAgentRegistry.load(loader, t)),
                new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    }

    /** Every discovered agent. */
    FenceAgentRegistry registry() {
        return all.get();
    }

    /** The agents of {@code type} alone (none if no provider has it). */
    FenceAgentRegistry registry(String type) {
        return ofType.apply(type);
    }

    /** The value of an environment variable. */
    Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name));
    }
}
