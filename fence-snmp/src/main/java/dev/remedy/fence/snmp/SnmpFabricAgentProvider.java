package dev.remedy.fence.snmp;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import java.util.EnumSet;

/**
 * The {@code snmp-fabric} agent: fabric fencing of switch ports over SNMP (built-in profile {@code if-mib}: IF-MIB
 * {@code ifAdminStatus}, ports by ifIndex or by ifName/ifDescr): OFF sets the node's ports down, ON un-fences them
 * and must run before the node rejoins. The machine keeps running, so REBOOT is not supported. Whether the isolation
 * survives a restart of the switch is the profile's to say ({@code if-mib}: it does not).
 */
@AgentType(SnmpFabricAgentProvider.TYPE)
public final class SnmpFabricAgentProvider extends SnmpAgentProvider {

    /** The type id. */
    public static final String TYPE = "snmp-fabric";

    /** Describes the {@code snmp-fabric} agent. */
    public SnmpFabricAgentProvider() {
        super(TYPE, FencingKind.FABRIC, EnumSet.complementOf(EnumSet.of(FenceAction.REBOOT)));
    }

    @Override
    public String description() {
        return "switch ports over SNMP, IF-MIB ifAdminStatus (fabric fencing: OFF isolates, ON un-fences, no REBOOT)";
    }
}
