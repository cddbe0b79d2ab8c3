package dev.remedy.test.fake;

import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@code fake} agent for one target; see {@link FakeFenceAgentProvider}. */
final class FakeFenceAgent implements FenceAgent {

    private static final Logger LOG = LoggerFactory.getLogger(FakeFenceAgent.class);

    private final FakePowerLab lab;
    private final String plug;
    private final String username;
    private final Secret password;
    private final Duration loginTimeout;
    private final Duration powerWait;
    private final Duration pollInterval;

    FakeFenceAgent(FakePowerLab lab, String plug, String username, Secret password, Duration loginTimeout,
                   Duration powerWait, Duration pollInterval) {
        this.lab = lab;
        this.plug = plug;
        this.username = username;
        this.password = password;
        this.loginTimeout = loginTimeout;
        this.powerWait = powerWait;
        this.pollInterval = pollInterval;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        Call call = new Call(lab.target(plug, context.time()), context);
        LOG.debug("fake: {} on target '{}' as user '{}' for {}", request.action().code(), plug, username,
                request.initiator());
        FenceOutcome outcome = call.login().orElse(null);
        if (outcome == null) {
            outcome = switch (request.action()) {
                case STATUS -> FenceOutcome.succeeded(call.target.power(), describe() + " reads " + call.target.power());
                case MONITOR -> FenceOutcome.succeeded(call.target.power(), describe() + " answers and accepts the credentials");
                case LIST -> FenceOutcome.succeeded(PowerState.UNKNOWN, "listed the fake targets of the agent's lab")
                        .withPlugs(lab.targets().stream()
                                .map(t -> new Plug(t.name(), "", t.power())).toList());
                case ON -> call.switchTo(PowerState.ON);
                case OFF -> call.switchTo(PowerState.OFF);
                case REBOOT -> call.reboot();
            };
        }
        return outcome.withAttempts(call.attempts).withElapsed(context.elapsed());
    }

    private String describe() {
        return "fake target '" + plug + "'";
    }

    /** The state of one {@code execute} call. */
    private final class Call {
        private final FakePowerTarget target;
        private final FenceContext context;
        private int attempts;

        Call(FakePowerTarget target, FenceContext context) {
            this.target = target;
            this.context = context;
        }

        /** Empty when logged in; otherwise the failed outcome. */
        Optional<FenceOutcome> login() throws InterruptedException {
            while (true) {
                attempts++;
                context.progress("connecting to " + describe() + " as " + username + " (attempt " + attempts + ")");
                if (target.reachable()) {
                    return target.accepts(password) ? Optional.empty() : Optional.of(FenceOutcome.failed(
                            PowerState.UNKNOWN, describe() + " refused the login of user '" + username
                                    + "'; check the username and password"));
                }
                context.sleep(loginTimeout);
                if (context.expired()) {
                    return Optional.of(FenceOutcome.timedOut(describe() + " did not answer within "
                            + context.budget().toMillis() + " ms (" + attempts
                            + (attempts == 1 ? " login attempt" : " login attempts") + "); check that the device is powered, reachable and named correctly"));
                }
            }
        }

        FenceOutcome switchTo(PowerState wanted) throws InterruptedException {
            if (target.power() == wanted && target.pending().isEmpty()) {
                return FenceOutcome.succeeded(wanted, describe() + " is already " + wanted);
            }
            context.progress("sending power " + wanted + " to " + describe());
            target.command(wanted);
            context.sleep(powerWait);
            for (int polls = 1; ; polls++) {
                PowerState read = target.power();
                if (read == wanted) {
                    return FenceOutcome.succeeded(read, describe() + " reads " + read + " (confirmed after "
                            + polls + (polls == 1 ? " status poll)" : " status polls)"));
                }
                if (context.expired()) {
                    return FenceOutcome.timedOut(describe() + " still read " + read + " when the deadline of "
                            + context.budget().toMillis() + " ms passed; power " + wanted + " is not confirmed");
                }
                context.progress("waiting for " + describe() + " to read " + wanted + " (status poll " + polls + ")");
                context.sleep(pollInterval);
            }
        }

        FenceOutcome reboot() throws InterruptedException {
            FenceOutcome off = switchTo(PowerState.OFF);
            if (!off.isSuccess()) {
                return FenceOutcome.of(off.status(), off.power(), "reboot stopped before power on: " + off.detail());
            }
            FenceOutcome on = switchTo(PowerState.ON);
            String detail = on.isSuccess()
                    ? "rebooted " + describe() + ": OFF confirmed, then ON confirmed"
                    : "OFF was confirmed, but power on failed: " + on.detail();
            return FenceOutcome.of(on.status(), on.power(), detail);
        }
    }
}
