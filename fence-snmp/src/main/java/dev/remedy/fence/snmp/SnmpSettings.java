package dev.remedy.fence.snmp;

import static dev.remedy.config.profiles.ProfileParameters.text;

import dev.remedy.config.profiles.ProfileParameters;
import dev.remedy.fence.snmp.internal.profile.DeviceProfile;
import dev.remedy.fence.snmp.internal.profile.Profile;
import dev.remedy.fence.snmp.internal.profile.ProfileCatalog;
import dev.remedy.fence.snmp.internal.profile.ProfileChoice;
import dev.remedy.fence.snmp.internal.session.AuthProtocol;
import dev.remedy.fence.snmp.internal.session.Credentials;
import dev.remedy.fence.snmp.internal.session.Endpoint;
import dev.remedy.fence.snmp.internal.session.PrivProtocol;
import dev.remedy.fence.snmp.internal.session.SecurityLevel;
import dev.remedy.fence.snmp.internal.session.SnmpVersion;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.SecretScrubber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The checked configuration of one SNMP agent: the agent's address, version and credentials, the device profile
 * (built-in or from {@code profile_file}), the plugs and the timeouts. Every problem {@link AgentConfig#validate()}
 * cannot see is reported at once: credentials of another SNMP version, a v3 level without its protocol or
 * passphrase, a passphrase shorter than RFC 3414's 8 characters, an unknown profile or one of another kind, a plug
 * that is neither of the profile's form nor a name the profile can look up, a device reboot the profile does not
 * have. Nothing is sent before all of this holds.
 */
record SnmpSettings(Endpoint endpoint, Profile profile, List<String> plugs, Duration requestTimeout, int retries,
        Duration powerTimeout, Duration pollInterval, Duration rebootOffTime, boolean deviceReboot,
        SecretScrubber scrubber) {

    /** RFC 3414 §11.2: a passphrase is at least 8 octets (snmp4j refuses shorter ones). */
    static final int MIN_PASSPHRASE = 8;
    static final int MAX_RETRIES = 10;
    private static final List<String> V3_ONLY = List.of("username", "password", "snmp_sec_level", "snmp_auth_prot",
            "snmp_priv_prot", "snmp_priv_passwd");
    private static final ProfileParameters<Profile> PROFILES = new ProfileParameters<>(ProfileCatalog.builtIn(),
            "SNMP device profile", SnmpSettings::describe, SnmpAgentProvider::typeOf, true);

    /** Copies the plugs. */
    SnmpSettings {
        plugs = List.copyOf(plugs);
    }

    /** Reads and checks {@code config} for an agent of {@code kind}. */
    static SnmpSettings of(AgentConfig config, FencingKind kind) {
        config.requireValid();
        List<ConfigProblem> problems = new ArrayList<>();
        int port = config.integer("ipport");
        if (port < 1 || port > 65535) {
            problems.add(new ConfigProblem("ipport", "is " + port + ", not a UDP port",
                    "give 1 to 65535 (161 is usual)"));
        }
        String host = config.string("ip").strip();
        if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace) || host.contains("/")) {
            problems.add(new ConfigProblem("ip", "'" + host + "' is not a host name or address",
                    "give the device's host name or IP address"));
        }
        SnmpVersion version = SnmpVersion.of(config.string("snmp_version")).orElseThrow();
        Optional<Credentials> credentials = version == SnmpVersion.V3 ? user(config, problems)
                : community(config, version, problems);
        Optional<Profile> profile = PROFILES.resolve(config, kind, problems);
        List<String> plugs = plugs(config, profile, problems);
        boolean deviceReboot = kind == FencingKind.POWER && config.string("reboot_method").equals("device");
        if (deviceReboot) {
            profile.filter(p -> tables(p).stream().anyMatch(t -> t.reboot().isEmpty())).ifPresent(p -> problems.add(
                    new ConfigProblem("reboot_method", "is device, but profile " + p.name() + " describes no reboot of "
                            + "the device's own", "use reboot_method=cycle (OFF confirmed, then ON)")));
        }
        for (String name : List.of("snmp_timeout", "power_timeout", "poll_interval")) {
            if (config.duration(name).isZero()) {
                problems.add(new ConfigProblem(name, "is zero", "give at least 1ms"));
            }
        }
        int retries = config.integer("snmp_retries");
        if (retries < 0 || retries > MAX_RETRIES) {
            problems.add(new ConfigProblem("snmp_retries", "is " + retries + ", outside 0 to " + MAX_RETRIES,
                    "give how many times a request is sent again without an answer (2 is usual)"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(config.agentType(), problems);
        }
        return new SnmpSettings(new Endpoint(host, port, version, credentials.orElseThrow()), profile.orElseThrow(),
                plugs, config.duration("snmp_timeout"), retries, config.duration("power_timeout"),
                config.duration("poll_interval"), kind == FencingKind.POWER ? config.duration("reboot_off_time")
                : Duration.ZERO, deviceReboot, SecretScrubber.of(config));
    }

    private static Optional<Credentials> community(AgentConfig config, SnmpVersion version,
            List<ConfigProblem> problems) {
        for (String name : V3_ONLY) {
            if (config.isSet(name)) {
                problems.add(new ConfigProblem(name, "is given, but snmp_version is " + version.code() + ", which has"
                        + " no users", "remove " + name + ", or use snmp_version=3"));
            }
        }
        Optional<Secret> community = config.secret("community").filter(s -> !s.reveal().isEmpty());
        if (community.isEmpty()) {
            problems.add(new ConfigProblem("community", "is missing", "give the device's write community (SNMP v"
                    + version.code() + "), or use snmp_version=3 with a user"));
            return Optional.empty();
        }
        return Optional.of(new Credentials.Community(community.get()));
    }

    private static Optional<Credentials> user(AgentConfig config, List<ConfigProblem> problems) {
        if (config.isSet("community")) {
            problems.add(new ConfigProblem("community", "is given, but snmp_version is 3, which uses a user",
                    "remove community, or use snmp_version=2c"));
        }
        Optional<String> name = text(config, "username");
        if (name.isEmpty()) {
            problems.add(new ConfigProblem("username", "is missing", "give the SNMPv3 user (security name)"));
        }
        SecurityLevel level = SecurityLevel.of(config.string("snmp_sec_level")).orElseThrow();
        Optional<AuthProtocol> auth = text(config, "snmp_auth_prot").flatMap(AuthProtocol::of);
        Optional<Secret> authPass = config.secret("password");
        Optional<PrivProtocol> priv = text(config, "snmp_priv_prot").flatMap(PrivProtocol::of);
        Optional<Secret> privPass = config.secret("snmp_priv_passwd");
        needs(level.authenticates(), level, "snmp_auth_prot", auth.isPresent(), "the authentication protocol, "
                + AuthProtocol.codes() + " (SHA-256 or stronger unless the device has only SHA)", problems);
        needs(level.authenticates(), level, "password", authPass.isPresent(), "the user's authentication passphrase",
                problems);
        needs(level.encrypts(), level, "snmp_priv_prot", priv.isPresent(), "the privacy protocol, "
                + PrivProtocol.codes(), problems);
        needs(level.encrypts(), level, "snmp_priv_passwd", privPass.isPresent(), "the user's privacy passphrase",
                problems);
        for (String secret : List.of("password", "snmp_priv_passwd")) {
            config.secret(secret).filter(s -> s.reveal().length() < MIN_PASSPHRASE).ifPresent(s -> problems.add(
                    new ConfigProblem(secret, "is shorter than " + MIN_PASSPHRASE + " characters, which SNMPv3 does "
                            + "not allow (RFC 3414)", "give the passphrase the device has for this user")));
        }
        if (name.isEmpty() || problems.stream().anyMatch(p -> V3_ONLY.contains(p.path())
                || "community".equals(p.path()))) {
            return Optional.empty();
        }
        return Optional.of(new Credentials.User(name.get(), level, auth.filter(a -> level.authenticates()),
                authPass.filter(a -> level.authenticates()), priv.filter(p -> level.encrypts()),
                privPass.filter(p -> level.encrypts())));
    }

    private static void needs(boolean needed, SecurityLevel level, String name, boolean given, String what,
            List<ConfigProblem> problems) {
        if (needed && !given) {
            problems.add(new ConfigProblem(name, "is missing, and snmp_sec_level " + level.code() + " needs it",
                    "give " + what));
        } else if (!needed && given) {
            problems.add(new ConfigProblem(name, "is given, but snmp_sec_level " + level.code() + " does not use it",
                    "remove it, or raise snmp_sec_level" + (level == SecurityLevel.AUTH_NO_PRIV ? " to authPriv"
                    : "")));
        }
    }

    /**
     * The profile {@code config} names for an agent of {@code kind}, from the built-in catalog or
     * {@code profile_file}, as {@link #of} resolves it; empty if it cannot be resolved. No network I/O.
     */
    static Optional<Profile> profileOf(AgentConfig config, FencingKind kind) {
        return ProfileParameters.quietly(config, problems -> PROFILES.resolve(config, kind, problems));
    }

    private static List<String> plugs(AgentConfig config, Optional<Profile> profile, List<ConfigProblem> problems) {
        Optional<String> given = text(config, "plug");
        if (given.isEmpty()) {
            problems.add(new ConfigProblem("plug", "is missing", "give the outlet or port of this node; several "
                    + "(dual power supplies) separated by commas"));
            return List.of();
        }
        List<String> plugs = Arrays.stream(given.get().split(",", -1)).map(String::strip).toList();
        for (String plug : plugs) {
            if (plug.isEmpty()) {
                problems.add(new ConfigProblem("plug", "'" + given.get() + "' has an empty plug", "write plugs "
                        + "separated by single commas"));
                continue;
            }
            profile.ifPresent(p -> {
                for (DeviceProfile table : tables(p)) {
                    if (table.indexOf(plug).isEmpty() && !table.mayName(plug)) {
                        problems.add(new ConfigProblem("plug", "'" + printable(plug) + "' is not a plug of profile "
                                + table.name(), "give a plug of the form " + table.plug().pattern()
                                + (table.names().isEmpty() ? "" : ", or its name as the device shows it (printable, "
                                + "not a number, no comma)") + "; commas separate several"));
                        return;
                    }
                }
            });
        }
        if (plugs.stream().distinct().count() != plugs.size()) {
            problems.add(new ConfigProblem("plug", "'" + given.get() + "' names a plug twice", "name each plug once"));
        }
        return plugs;
    }

    /** The tables a profile may use: itself, or every candidate of a choice. */
    static List<DeviceProfile> tables(Profile profile) {
        return profile instanceof ProfileChoice choice ? choice.candidates() : List.of((DeviceProfile) profile);
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(64).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c)
                : String.format(Locale.ROOT, "\\u%04x", c)));
        return text.length() > 64 ? out + "..." : out.toString();
    }

    private static String describe(FencingKind kind) {
        return kind == FencingKind.FABRIC ? "fabric (switch port)" : kind.name().toLowerCase(Locale.ROOT) + " (outlet)";
    }

    /** The device, for messages: {@code profile apc at udp:10.0.0.5/161 (SNMP v2c)}. */
    String device() {
        return "profile " + profile.name() + " at " + endpoint.describe();
    }
}
