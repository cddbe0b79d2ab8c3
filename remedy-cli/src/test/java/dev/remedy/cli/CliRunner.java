package dev.remedy.cli;

import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine;

/**
 * Runs {@link RemedyCli#execute} in a test: a fake clock (so deadlines pass instantly), chosen environment
 * variables, a chosen registry (by default the {@code fake} agent alone, fencing the targets of {@link #lab()}) and
 * captured stdout and stderr.
 */
final class CliRunner {

    private final FakeTimeSource time = new FakeTimeSource();
    private final Map<String, String> variables = new HashMap<>();
    private final FakePowerLab lab = new FakePowerLab();
    private FenceAgentRegistry registry = FenceAgentRegistry.of(new FakeFenceAgentProvider(lab));
    private boolean logged;

    /** The clock every action of this runner runs on. */
    FakeTimeSource time() {
        return time;
    }

    /** The targets the default registry's {@code fake} agent fences. */
    FakePowerLab lab() {
        return lab;
    }

    /** Sets an environment variable seen by {@code --secret-env}. */
    CliRunner variable(String name, String value) {
        variables.put(name, value);
        return this;
    }

    /** Uses {@code agents} instead of the fake agent alone. */
    CliRunner registry(FenceAgentRegistry agents) {
        this.registry = agents;
        return this;
    }

    /**
     * Sets up logging for each run as {@link RemedyCli#main} does, into the captured stderr (put back after the
     * run): to see what {@code --verbose} logs.
     */
    CliRunner logged() {
        this.logged = true;
        return this;
    }

    /** Runs {@code remedy args…}. */
    Result run(String... args) {
        return run(CommandLine.defaultFactory(), args);
    }

    /** Runs {@code remedy args…} with the commands {@code factory} makes (to reach a running command). */
    Result run(CommandLine.IFactory factory, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliEnvironment env = new CliEnvironment(Map.copyOf(variables), time, registry, new PrintWriter(out, true),
                new PrintWriter(err, true));
        int code;
        if (logged) {
            try (CliLogging logging = CliLogging.install(List.of(args).contains("--verbose"), env.err())) {
                code = RemedyCli.execute(args, env, factory);
            }
        } else {
            code = RemedyCli.execute(args, env, factory);
        }
        return new Result(code, out.toString(), err.toString());
    }

    /** A plug name no other test uses. */
    static String uniquePlug() {
        return "cli-" + UUID.randomUUID();
    }

    /** What one run printed and returned. */
    record Result(int exitCode, String out, String err) {

        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }

        /** Everything printed, stdout then stderr. */
        String printed() {
            return out + err;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }
}
