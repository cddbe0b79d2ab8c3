package dev.remedy.fence.ssh;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import java.util.EnumSet;

/**
 * The {@code ssh-host} agent: soft fencing, a gentle first level before power fencing. REBOOT asks the host itself
 * to restart its node agent ({@code linux-node-agent}) or to reboot through SysRq ({@code linux-sysrq}), and is
 * confirmed by the agent active again or by a new boot id. It never says the machine is off: OFF and ON are not
 * supported.
 */
@AgentType(SshHostAgentProvider.TYPE)
public final class SshHostAgentProvider extends SshAgentProvider {

    /** The type id. */
    public static final String TYPE = "ssh-host";

    /** Describes the {@code ssh-host} agent. */
    public SshHostAgentProvider() {
        super(TYPE, FencingKind.SOFT, EnumSet.of(FenceAction.REBOOT, FenceAction.STATUS, FenceAction.MONITOR));
    }

    @Override
    public String description() {
        return "soft fencing of a Linux host over SSH (restart the node agent, or reboot by SysRq with a new boot id)";
    }
}
