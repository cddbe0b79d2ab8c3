package dev.remedy.core.engine.crash;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@value #TYPE} agent: a BMC in front of a {@link CrashLab} machine. Each action first waits a few tens of
 * milliseconds, as a device answers, so that a kill can land while it is under way; a power command is journaled and
 * the machine switched before the agent reports success, so a success always reads the new state.
 */
final class LabFenceAgentProvider implements FenceAgentProvider {

    /** The type id. */
    static final String TYPE = "crash-lab";

    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("plug", ParameterType.STRING).required()
                    .description("the node whose machine the agent switches").build());

    private final CrashLab lab;

    LabFenceAgentProvider(CrashLab lab) {
        this.lab = lab;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "the power switch of a crash lab's machines";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return PARAMETERS;
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.of(FenceAction.ON, FenceAction.OFF, FenceAction.STATUS);
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        String node = config.requireValid().string("plug");
        return (request, context) -> switch (request.action()) {
            case OFF, ON -> {
                answer(context, 20, 60);
                PowerState wanted = request.action() == FenceAction.ON ? PowerState.ON : PowerState.OFF;
                PowerState was = lab.switchPower(node, wanted);
                yield FenceOutcome.succeeded(wanted, "machine of " + node + " was " + was + ", reads " + wanted);
            }
            case STATUS -> {
                answer(context, 5, 20);
                PowerState power = lab.readPower(node);
                yield FenceOutcome.succeeded(power, "machine of " + node + " reads " + power);
            }
            default -> FenceOutcome.unsupported(TYPE, request.action());
        };
    }

    /** The device's answer time: between {@code minMillis} and {@code maxMillis}, within the deadline. */
    private static void answer(FenceContext context, int minMillis, int maxMillis) throws InterruptedException {
        context.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextInt(minMillis, maxMillis + 1)));
    }
}
