package dev.remedy.cli;

import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;

/**
 * What a command reads from the world: environment variables, the clock, the agents, and where to print.
 * Tests build one with a fake clock and captured output.
 *
 * @param variables environment variables (for {@code --secret-env})
 * @param time      the clock of every action
 * @param registry  the discovered agents
 * @param out       results
 * @param err       progress, warnings and errors
 */
public record CliEnvironment(Map<String, String> variables, TimeSource time, FenceAgentRegistry registry,
                             PrintWriter out, PrintWriter err) {

    /** The process environment, the system clock, ServiceLoader discovery and the console. */
    public static CliEnvironment system() {
        return new CliEnvironment(System.getenv(), TimeSource.system(), FenceAgentRegistry.load(),
                new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    }

    /** The value of an environment variable. */
    Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name));
    }
}
