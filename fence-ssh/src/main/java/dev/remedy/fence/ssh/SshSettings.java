package dev.remedy.fence.ssh;

import static dev.remedy.config.profiles.ProfileParameters.path;
import static dev.remedy.config.profiles.ProfileParameters.text;

import dev.remedy.config.profiles.ProfileParameters;
import dev.remedy.fence.ssh.internal.profile.DeviceProfile;
import dev.remedy.fence.ssh.internal.profile.Placeholders;
import dev.remedy.fence.ssh.internal.profile.ProfileCatalog;
import dev.remedy.fence.ssh.internal.session.HostKeyPolicy;
import dev.remedy.fence.ssh.internal.session.SshLogin;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The checked configuration of one SSH agent: the login, the device profile (built-in or from
 * {@code profile_file}), the plugs and the timeouts. Every problem {@link AgentConfig#validate()} cannot see is
 * reported at once: an unknown profile, a profile of another kind than the agent type, a plug the profile's form
 * refuses or with a character outside letters, digits and {@code . _ - / : + @} (so no plug can smuggle a command
 * in, whatever a user's profile allows), host key options that exclude each other, an {@code enable_password} for
 * a profile without an enable section.
 */
record SshSettings(SshLogin login, DeviceProfile profile, List<String> plugs, Duration loginTimeout,
        Duration shellTimeout, Duration powerTimeout, Duration pollInterval, Duration rebootOffTime,
        Optional<Secret> enablePassword) {

    private static final ProfileParameters<DeviceProfile> PROFILES = new ProfileParameters<>(ProfileCatalog.builtIn(),
            "device profile", SshSettings::describe, SshAgentProvider::typeOf, false);

    /** Reads and checks {@code config} for an agent of {@code kind}. */
    static SshSettings of(AgentConfig config, FencingKind kind) {
        config.requireValid();
        List<ConfigProblem> problems = new ArrayList<>();
        int port = config.integer("ipport");
        if (port < 1 || port > 65535) {
            problems.add(new ConfigProblem("ipport", "is " + port + ", not a TCP port", "give 1 to 65535 (22 is usual)"));
        }
        String host = config.string("ip");
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace) || host.contains("/")) {
            problems.add(new ConfigProblem("ip", "'" + host + "' is not a host name or address",
                    "give the device's host name or IP address"));
        }
        Optional<DeviceProfile> profile = profile(config, kind, problems);
        List<String> plugs = plugs(config, kind, profile, problems);
        HostKeyPolicy hostKeys = hostKeys(config, problems);
        Optional<Secret> password = config.secret("password");
        Optional<Path> identity = text(config, "identity_file").map(ProfileParameters::path);
        identity.filter(file -> !Files.isReadable(file)).ifPresent(file -> problems.add(new ConfigProblem(
                "identity_file", "'" + file + "' is not a readable file", "give the path of an OpenSSH private key")));
        if (password.isEmpty() && identity.isEmpty()) {
            problems.add(new ConfigProblem("password", "neither password nor identity_file is given",
                    "give one of them (a key is better)"));
        }
        Optional<Secret> enablePassword = config.secret("enable_password");
        if (enablePassword.isPresent() && profile.isPresent() && profile.get().enable().isEmpty()) {
            problems.add(new ConfigProblem("enable_password", "is given, but profile " + profile.get().name()
                    + " has no enable section: it never enters a privileged prompt", "remove enable_password, or "
                    + "describe 'enable' in the profile (see the built-in cisco-ios)"));
        }
        for (String name : List.of("login_timeout", "shell_timeout", "power_timeout", "poll_interval")) {
            if (config.duration(name).isZero()) {
                problems.add(new ConfigProblem(name, "is zero", "give at least 1ms"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(config.agentType(), problems);
        }
        SshLogin login = new SshLogin(host, port, config.string("username"), password, identity,
                config.secret("identity_passphrase"), hostKeys, config.bool("ssh_legacy_algorithms"));
        return new SshSettings(login, profile.orElseThrow(), plugs, config.duration("login_timeout"),
                config.duration("shell_timeout"), config.duration("power_timeout"), config.duration("poll_interval"),
                kind == FencingKind.POWER ? config.duration("reboot_off_time") : Duration.ZERO, enablePassword);
    }

    /**
     * The profile {@code config} names for an agent of {@code kind}, from the built-in catalog or {@code profile_file},
     * as {@link #of} resolves it; empty if it cannot be resolved. No network I/O (it reads profile_file).
     */
    static Optional<DeviceProfile> profileOf(AgentConfig config, FencingKind kind) {
        return ProfileParameters.quietly(config, problems -> profile(config, kind, problems));
    }

    /** The profile {@code config} names, with {@code cmd_prompt} in place of its prompt if given. */
    private static Optional<DeviceProfile> profile(AgentConfig config, FencingKind kind, List<ConfigProblem> problems) {
        Optional<DeviceProfile> found = PROFILES.resolve(config, kind, problems);
        if (found.isEmpty()) {
            return found;
        }
        DeviceProfile profile = found.get();
        Optional<String> prompt = text(config, "cmd_prompt");
        if (prompt.isPresent()) {
            try {
                profile = profile.withPrompt(Pattern.compile(prompt.get()));
            } catch (PatternSyntaxException e) {
                problems.add(new ConfigProblem("cmd_prompt", "is not a valid regular expression: " + e.getDescription(),
                        "give a Java regex matching the whole prompt line, e.g. 'apc>\\s*'"));
            }
        }
        return Optional.of(profile);
    }

    private static List<String> plugs(AgentConfig config, FencingKind kind, Optional<DeviceProfile> profile,
            List<ConfigProblem> problems) {
        if (kind == FencingKind.SOFT) {
            return List.of();
        }
        Optional<String> given = text(config, "plug");
        if (given.isEmpty()) {
            problems.add(new ConfigProblem("plug", "is missing", "give the outlet or port of this node; several "
                    + "(dual power supplies) separated by commas"));
            return List.of();
        }
        List<String> plugs = Arrays.stream(given.get().split(",")).map(String::strip).toList();
        Optional<Pattern> form = profile.flatMap(DeviceProfile::plug);
        String hint = form.map(f -> "give a plug of the form " + f.pattern() + " (commas separate several)")
                .orElse("give the plug's name: letters, digits and . _ - / : + @ only");
        for (String plug : plugs) {
            if (!Placeholders.isWord(plug)) {
                // Whatever the profile's form lets through, a plug is sent in a command: it must stay one word.
                problems.add(new ConfigProblem("plug", "'" + Placeholders.printable(plug) + "' has a character "
                        + "that a device's command line could take for more than a plug (such as ; | & $ ` ( ) or a "
                        + "space)", hint));
            } else if (form.isPresent() && !form.get().matcher(plug).matches()) {
                problems.add(new ConfigProblem("plug", "'" + plug + "' is not a plug of profile " + profile.get().name(),
                        hint));
            }
        }
        if (plugs.stream().distinct().count() != plugs.size()) {
            problems.add(new ConfigProblem("plug", "'" + given.get() + "' names a plug twice", "name each plug once"));
        }
        return plugs;
    }

    private static HostKeyPolicy hostKeys(AgentConfig config, List<ConfigProblem> problems) {
        Optional<String> pin = text(config, "host_key_fingerprint");
        boolean insecure = config.bool("ssh_insecure");
        if (pin.isPresent() && insecure) {
            problems.add(new ConfigProblem("ssh_insecure", "host_key_fingerprint and ssh_insecure exclude each other",
                    "keep the fingerprint: it is the safe choice"));
        }
        if (pin.isPresent()) {
            try {
                return HostKeyPolicy.Pinned.parse(pin.get());
            } catch (IllegalArgumentException e) {
                problems.add(new ConfigProblem("host_key_fingerprint", "is not a host key fingerprint", e.getMessage()));
                return new HostKeyPolicy.Insecure();
            }
        }
        if (insecure) {
            return new HostKeyPolicy.Insecure();
        }
        return new HostKeyPolicy.KnownHosts(path(config.string("known_hosts")));
    }

    private static String describe(FencingKind kind) {
        return kind.name().toLowerCase(Locale.ROOT) + " fencing";
    }

    /** The device, for messages: {@code profile apc at apc@10.0.0.5:22}. */
    String device() {
        return "profile " + profile.name() + " at " + login.describe();
    }

    /** Whether host keys are not verified. */
    boolean insecure() {
        return login.hostKeys() instanceof HostKeyPolicy.Insecure;
    }
}
