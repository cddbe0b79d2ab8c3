package dev.remedy.fence.snmp;

import dev.remedy.fence.snmp.internal.profile.ProfileCatalog;
import dev.remedy.fence.snmp.internal.session.AuthProtocol;
import dev.remedy.fence.snmp.internal.session.PrivProtocol;
import dev.remedy.fence.snmp.internal.session.SecurityLevel;
import dev.remedy.fence.snmp.internal.session.SnmpVersion;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the two SNMP agent types share: the address, version and credentials (with the ClusterLabs agents' option
 * names), the device profile, the plugs and the timeouts. Each subclass fixes the kind of fencing, and so which
 * profiles it accepts and which actions it supports.
 */
abstract class SnmpAgentProvider implements FenceAgentProvider {

    private final String type;
    private final FencingKind kind;
    private final Set<FenceAction> actions;
    private final List<ParameterDescriptor> parameters;

    SnmpAgentProvider(String type, FencingKind kind, Set<FenceAction> actions) {
        this.type = type;
        this.kind = kind;
        this.actions = Set.copyOf(actions);
        this.parameters = parameters(kind);
    }

    /** The agent type for profiles of {@code kind}. */
    static String typeOf(FencingKind kind) {
        return kind == FencingKind.FABRIC ? SnmpFabricAgentProvider.TYPE : SnmpFenceAgentProvider.TYPE;
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final FencingKind fencingKind() {
        return kind;
    }

    @Override
    public final List<ParameterDescriptor> parameters() {
        return parameters;
    }

    @Override
    public final Set<FenceAction> supportedActions() {
        return actions;
    }

    /**
     * For {@code snmp-fabric}, the {@code isolationPersists} of the configured profile (built-in, or from
     * {@code profile_file}, which is read; for a choice, true only if every candidate's is); false for the power
     * agent, or for a profile that cannot be resolved.
     */
    @Override
    public final boolean isolationPersists(AgentConfig config) {
        return kind == FencingKind.FABRIC && config.agentType().equals(type)
                && SnmpSettings.profileOf(config, kind).map(p -> SnmpSettings.tables(p).stream()
                        .allMatch(t -> t.isolationPersists())).orElse(false);
    }

    @Override
    public final FenceAgent create(AgentConfig config) {
        return new SnmpFenceAgent(type, actions, SnmpSettings.of(config, kind));
    }

    private static List<ParameterDescriptor> parameters(FencingKind kind) {
        List<String> profiles = ProfileCatalog.builtIn().names(kind);
        List<ParameterDescriptor> list = new ArrayList<>(List.of(
                ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ip")
                        .description("host name or address of the device's SNMP agent").build(),
                ParameterDescriptor.builder("ipport", ParameterType.INTEGER).defaultValue("161")
                        .fenceAgentsName("ipport").description("UDP port of the device's SNMP agent").build(),
                ParameterDescriptor.builder("plug", ParameterType.STRING).required().fenceAgentsName("plug")
                        .description(kind == FencingKind.POWER ? "outlet(s) of the node, by number or by name, "
                                + "commas between several (dual power supplies); each is switched and read back on "
                                + "its own" : "switch port(s) of the node, by ifIndex or by ifName/ifDescr, commas "
                                + "between several").build(),
                ParameterDescriptor.builder("profile", ParameterType.STRING).required()
                        .description("device profile: built in " + profiles + ", or one from profile_file").build(),
                ParameterDescriptor.builder("profile_file", ParameterType.STRING)
                        .description("a YAML file of SNMP device profiles, on top of the built-in ones").build(),
                ParameterDescriptor.builder("snmp_version", ParameterType.CHOICE).defaultValue("2c")
                        .allowedValues(SnmpVersion.codes().toArray(String[]::new)).fenceAgentsName("snmp_version")
                        .description("SNMP version: 1 and 2c send the community in clear text; 3 authenticates "
                                + "(and with authPriv encrypts)").build(),
                ParameterDescriptor.builder("community", ParameterType.STRING).secret().fenceAgentsName("community")
                        .description("write community (SNMP v1 and v2c)").build(),
                ParameterDescriptor.builder("username", ParameterType.STRING).fenceAgentsName("username")
                        .description("SNMPv3 user (security name)").build(),
                ParameterDescriptor.builder("snmp_sec_level", ParameterType.CHOICE).defaultValue("authPriv")
                        .allowedValues(SecurityLevel.codes().toArray(String[]::new)).fenceAgentsName("snmp_sec_level")
                        .description("SNMPv3 security level").build(),
                ParameterDescriptor.builder("snmp_auth_prot", ParameterType.CHOICE)
                        .allowedValues(AuthProtocol.codes().toArray(String[]::new)).fenceAgentsName("snmp_auth_prot")
                        .description("SNMPv3 authentication protocol (SHA is SHA-1)").build(),
                ParameterDescriptor.builder("password", ParameterType.STRING).secret().fenceAgentsName("password")
                        .description("SNMPv3 authentication passphrase (at least 8 characters)").build(),
                ParameterDescriptor.builder("snmp_priv_prot", ParameterType.CHOICE)
                        .allowedValues(PrivProtocol.codes().toArray(String[]::new)).fenceAgentsName("snmp_priv_prot")
                        .description("SNMPv3 privacy protocol (AES is AES-128)").build(),
                ParameterDescriptor.builder("snmp_priv_passwd", ParameterType.STRING).secret()
                        .fenceAgentsName("snmp_priv_passwd")
                        .description("SNMPv3 privacy passphrase (at least 8 characters)").build(),
                ParameterDescriptor.builder("snmp_timeout", ParameterType.DURATION).defaultValue("1s")
                        .description("how long one request waits for its answer").build(),
                ParameterDescriptor.builder("snmp_retries", ParameterType.INTEGER).defaultValue("2")
                        .description("how many times a request without an answer is sent again (0 to 10), within the"
                                + " action's deadline").build(),
                ParameterDescriptor.builder("power_timeout", ParameterType.DURATION).defaultValue("20s")
                        .fenceAgentsName("power_timeout")
                        .description("how long to read a plug back for its new state").build(),
                ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("500ms")
                        .description("time between read-backs").build()));
        if (kind == FencingKind.POWER) {
            list.add(ParameterDescriptor.builder("reboot_method", ParameterType.CHOICE).defaultValue("cycle")
                    .allowedValues("cycle", "device")
                    .description("REBOOT as OFF confirmed, reboot_off_time, ON confirmed (cycle), or as the device's "
                            + "own reboot of every outlet at once, confirmed only if one round of reads sees them all "
                            + "off, then each on (device)")
                    .build());
            list.add(ParameterDescriptor.builder("reboot_off_time", ParameterType.DURATION).defaultValue("5s")
                    .description("with reboot_method=cycle, how long the outlets stay off between OFF confirmed and "
                            + "ON, so that power supplies drain").build());
        }
        return List.copyOf(list);
    }
}
