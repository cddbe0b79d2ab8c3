package dev.remedy.fence.ssh;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import java.util.Set;

/**
 * One node's plugs on one SSH device (or, for soft fencing, the host itself). Each action opens its own session
 * and closes it; the agent holds nothing between actions. Blocking: {@link #executeAsync} runs it on the given
 * executor.
 */
final class SshFenceAgent implements FenceAgent {

    private final String type;
    private final Set<FenceAction> actions;
    private final SshSettings settings;

    SshFenceAgent(String type, Set<FenceAction> actions, SshSettings settings) {
        this.type = type;
        this.actions = actions;
        this.settings = settings;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        if (!actions.contains(request.action())) {
            return FenceOutcome.unsupported(type, request.action());
        }
        return new SshRun(settings, context).run(request.action());
    }

    @Override
    public String toString() {
        return type + " agent for " + settings.device();
    }
}
