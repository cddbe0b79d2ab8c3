package dev.remedy.fence.ssh;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import java.util.EnumSet;

/**
 * The {@code ssh} agent: power fencing through a PDU's command line over SSH (built-in profile {@code apc}, or
 * your own). OFF succeeds only when every outlet of the node reads off; REBOOT is OFF confirmed then ON.
 */
@AgentType(SshFenceAgentProvider.TYPE)
public final class SshFenceAgentProvider extends SshAgentProvider {

    /** The type id. */
    public static final String TYPE = "ssh";

    /** Describes the {@code ssh} agent. */
    public SshFenceAgentProvider() {
        super(TYPE, FencingKind.POWER, EnumSet.allOf(FenceAction.class));
    }

    @Override
    public String description() {
        return "PDU outlets over SSH, driven by a device profile (YAML); host keys verified, every outlet read back";
    }
}
