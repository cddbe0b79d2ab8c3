package dev.remedy.examples.agent;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The {@code script} agent for one plug; see {@link ScriptFenceAgentProvider}. */
final class ScriptFenceAgent implements FenceAgent {

    private final Path command;
    private final String plug;
    private final Optional<Secret> password;
    private final Duration pollInterval;

    ScriptFenceAgent(Path command, String plug, Optional<Secret> password, Duration pollInterval) {
        this.command = command;
        this.plug = plug;
        this.password = password;
        this.pollInterval = pollInterval;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        Run run = new Run(context);
        FenceOutcome outcome;
        try {
            outcome = switch (request.action()) {
                case STATUS, MONITOR -> {
                    PowerState power = run.status();
                    yield FenceOutcome.succeeded(power, "plug '" + plug + "' reads " + power);
                }
                case ON -> run.switchTo(PowerState.ON);
                case OFF -> run.switchTo(PowerState.OFF);
                case REBOOT -> {
                    FenceOutcome off = run.switchTo(PowerState.OFF);
                    yield off.isSuccess() ? run.switchTo(PowerState.ON) : off;
                }
                case LIST -> FenceOutcome.unsupported("script", FenceAction.LIST);
            };
        } catch (CommandFailed e) {
            outcome = e.outcome;
        }
        return outcome.withAttempts(run.calls).withElapsed(context.elapsed());
    }

    /** A command that did not answer as it should; carries the outcome to return. */
    private static final class CommandFailed extends Exception {
        private final transient FenceOutcome outcome;

        CommandFailed(FenceOutcome outcome) {
            super(outcome.detail(), null, false, false);
            this.outcome = outcome;
        }
    }

    /** One {@code execute} call: runs the program, counting calls, within the context's deadline. */
    private final class Run {
        private final FenceContext context;
        private int calls;

        Run(FenceContext context) {
            this.context = context;
        }

        FenceOutcome switchTo(PowerState wanted) throws InterruptedException, CommandFailed {
            if (status() == wanted) {
                return FenceOutcome.succeeded(wanted, "plug '" + plug + "' is already " + wanted);
            }
            call(wanted == PowerState.ON ? "on" : "off");
            while (true) {
                PowerState read = status();
                if (read == wanted) {
                    return FenceOutcome.succeeded(read, "plug '" + plug + "' reads " + read);
                }
                context.progress("waiting for plug '" + plug + "' to read " + wanted);
                context.sleep(pollInterval);
                if (context.expired()) {
                    return FenceOutcome.timedOut("plug '" + plug + "' did not read " + wanted + " in time");
                }
            }
        }

        PowerState status() throws InterruptedException, CommandFailed {
            String answer = call("status").trim().toLowerCase(Locale.ROOT);
            return switch (answer) {
                case "on" -> PowerState.ON;
                case "off" -> PowerState.OFF;
                default -> throw new CommandFailed(FenceOutcome.failed(PowerState.UNKNOWN,
                        command + " status " + plug + " printed '" + answer + "', not on or off"));
            };
        }

        String call(String verb) throws InterruptedException, CommandFailed {
            calls++;
            context.progress("running " + command.getFileName() + " " + verb + " " + plug);
            ProcessBuilder builder = new ProcessBuilder(command.toString(), verb, plug).redirectErrorStream(true);
            password.ifPresent(p -> builder.environment().put("REMEDY_PASSWORD", p.reveal()));
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new CommandFailed(FenceOutcome.failed(PowerState.UNKNOWN, "cannot run " + command
                        + "; check the command parameter").withCause(e));
            }
            try {
                if (!process.waitFor(context.remaining().toNanos(), TimeUnit.NANOSECONDS)) {
                    throw new CommandFailed(FenceOutcome.timedOut(command.getFileName() + " " + verb + " " + plug
                            + " did not finish before the deadline"));
                }
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new CommandFailed(FenceOutcome.failed(PowerState.UNKNOWN, command.getFileName() + " "
                            + verb + " " + plug + " exited with " + process.exitValue()));
                }
                return output;
            } catch (IOException e) {
                throw new CommandFailed(FenceOutcome.failed(PowerState.UNKNOWN, "cannot read the output of "
                        + command).withCause(e));
            } finally {
                process.destroyForcibly();
            }
        }
    }
}
