package dev.remedy.fence.ssh;

import dev.remedy.fence.ssh.internal.profile.DeviceProfile;
import dev.remedy.fence.ssh.internal.profile.ProfileCatalog;
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
 * What the three SSH agent types share: the login and host key parameters (fence-agents names where they exist),
 * the device profile, and the timeouts. Each subclass fixes the kind of fencing, and so which profiles it
 * accepts and which actions it supports.
 */
abstract class SshAgentProvider implements FenceAgentProvider {

    private final String type;
    private final FencingKind kind;
    private final Set<FenceAction> actions;
    private final List<ParameterDescriptor> parameters;

    SshAgentProvider(String type, FencingKind kind, Set<FenceAction> actions) {
        this.type = type;
        this.kind = kind;
        this.actions = Set.copyOf(actions);
        this.parameters = parameters(kind);
    }

    /** The agent type for profiles of {@code kind}. */
    static String typeOf(FencingKind kind) {
        return switch (kind) {
            case POWER -> SshFenceAgentProvider.TYPE;
            case FABRIC -> SshFabricAgentProvider.TYPE;
            case SOFT -> SshHostAgentProvider.TYPE;
            case SELF -> throw new IllegalArgumentException("no SSH agent does self fencing: a device profile's kind"
                    + " is power, fabric or soft");
        };
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
     * For {@code ssh-fabric}, the {@code isolationPersists} of the configured profile (built-in, or from
     * {@code profile_file}, which is read); false for the other kinds, or for a profile that cannot be resolved.
     */
    @Override
    public final boolean isolationPersists(AgentConfig config) {
        return kind == FencingKind.FABRIC && config.agentType().equals(type)
                && SshSettings.profileOf(config, kind).map(DeviceProfile::isolationPersists).orElse(false);
    }

    @Override
    public final FenceAgent create(AgentConfig config) {
        return new SshFenceAgent(type, actions, SshSettings.of(config, kind));
    }

    private static List<ParameterDescriptor> parameters(FencingKind kind) {
        List<String> profiles = ProfileCatalog.builtIn().names(kind);
        List<ParameterDescriptor> list = new ArrayList<>(List.of(
                ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ip")
                        .description("host name or address of the device").build(),
                ParameterDescriptor.builder("ipport", ParameterType.INTEGER).defaultValue("22").fenceAgentsName("ipport")
                        .description("TCP port of the device's SSH server").build(),
                ParameterDescriptor.builder("username", ParameterType.STRING).required().fenceAgentsName("username")
                        .description("login name").build(),
                ParameterDescriptor.builder("password", ParameterType.STRING).secret().fenceAgentsName("password")
                        .description("login password (not needed with identity_file)").build(),
                ParameterDescriptor.builder("identity_file", ParameterType.STRING).fenceAgentsName("identity_file")
                        .description("OpenSSH private key (ed25519, ECDSA or RSA), tried before the password").build(),
                ParameterDescriptor.builder("identity_passphrase", ParameterType.STRING).secret()
                        .description("passphrase of identity_file, if it has one").build(),
                ParameterDescriptor.builder("enable_password", ParameterType.STRING).secret()
                        .description("enable secret, for a device that logs in at its unprivileged prompt (cisco-ios:"
                                + " 'switch>', then 'enable' for 'switch#')").build(),
                ParameterDescriptor.builder("profile", ParameterType.STRING).required()
                        .description("device profile: built in " + profiles + ", or one from profile_file").build(),
                ParameterDescriptor.builder("profile_file", ParameterType.STRING)
                        .description("a YAML file of device profiles, on top of the built-in ones").build(),
                ParameterDescriptor.builder("cmd_prompt", ParameterType.STRING).fenceAgentsName("cmd_prompt")
                        .description("regex of the whole prompt line, replacing the profile's").build(),
                ParameterDescriptor.builder("known_hosts", ParameterType.STRING).defaultValue("~/.ssh/known_hosts")
                        .description("OpenSSH known_hosts file the device's host key must be in").build(),
                ParameterDescriptor.builder("host_key_fingerprint", ParameterType.STRING)
                        .description("the device's host key, pinned by its SHA256:... fingerprint (ssh-keygen -l), with its"
                                + " type before it (ssh-rsa SHA256:...) to offer only that type's algorithms")
                        .build(),
                ParameterDescriptor.builder("ssh_insecure", ParameterType.BOOLEAN).defaultValue("false")
                        .description("skip host key verification (unsafe; warned on every use)").build(),
                ParameterDescriptor.builder("ssh_legacy_algorithms", ParameterType.BOOLEAN).defaultValue("false")
                        .description("also allow the SHA-1, CBC and ssh-rsa algorithms of old firmware (unsafe; "
                                + "warned on every use)").build(),
                ParameterDescriptor.builder("login_timeout", ParameterType.DURATION).defaultValue("10s")
                        .fenceAgentsName("login_timeout").description("connect, log in and see the first prompt")
                        .build(),
                ParameterDescriptor.builder("shell_timeout", ParameterType.DURATION).defaultValue("5s")
                        .fenceAgentsName("shell_timeout").description("wait for the prompt after each command").build(),
                ParameterDescriptor.builder("power_timeout", ParameterType.DURATION).defaultValue("20s")
                        .fenceAgentsName("power_timeout").description("how long to read back for the new state")
                        .build(),
                ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("1s")
                        .description("time between read-backs").build()));
        if (kind == FencingKind.POWER) {
            list.add(ParameterDescriptor.builder("reboot_off_time", ParameterType.DURATION).defaultValue("5s")
                    .description("REBOOT keeps the outlet off this long between OFF confirmed and ON (the default is a"
                            + " PDU's usual reboot duration, so that power supplies drain)").build());
        }
        if (kind != FencingKind.SOFT) {
            list.add(3, ParameterDescriptor.builder("plug", ParameterType.STRING).required().fenceAgentsName("plug")
                    .description(kind == FencingKind.POWER ? "outlet(s) of the node, commas between several (dual "
                            + "power supplies)" : "switch or storage port(s) of the node, commas between several")
                    .build());
        }
        return List.copyOf(list);
    }
}
