package dev.remedy.fence.snmp;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import java.util.EnumSet;

/**
 * The {@code snmp} agent: power fencing of PDU outlets over SNMP (built-in profiles {@code apc}, {@code eaton} and
 * {@code raritan}, each choosing between its vendor's MIB generations by what the device answers, the tables they
 * choose from, or your own). Each outlet is switched and read back on
 * its own; OFF succeeds only when every outlet of the node reads off; REBOOT is OFF confirmed then ON.
 */
@AgentType(SnmpFenceAgentProvider.TYPE)
public final class SnmpFenceAgentProvider extends SnmpAgentProvider {

    /** The type id. */
    public static final String TYPE = "snmp";

    /** Describes the {@code snmp} agent. */
    public SnmpFenceAgentProvider() {
        super(TYPE, FencingKind.POWER, EnumSet.allOf(FenceAction.class));
    }

    @Override
    public String description() {
        return "PDU outlets over SNMP v1/v2c/v3, driven by a device profile (YAML); every outlet read back";
    }
}
