package dev.remedy.fence.ssh;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import java.util.EnumSet;

/**
 * The {@code ssh-fabric} agent: fabric fencing through a switch's command line over SSH (built-in profiles
 * {@code cisco-ios} and {@code brocade-fos}): OFF isolates the node's ports, ON un-fences them, and must run
 * before the node rejoins. The machine keeps running, so REBOOT is not supported.
 */
@AgentType(SshFabricAgentProvider.TYPE)
public final class SshFabricAgentProvider extends SshAgentProvider {

    /** The type id. */
    public static final String TYPE = "ssh-fabric";

    /** Describes the {@code ssh-fabric} agent. */
    public SshFabricAgentProvider() {
        super(TYPE, FencingKind.FABRIC, EnumSet.complementOf(EnumSet.of(FenceAction.REBOOT)));
    }

    @Override
    public String description() {
        return "switch and storage ports over SSH (fabric fencing: OFF isolates, ON un-fences, no REBOOT)";
    }
}
