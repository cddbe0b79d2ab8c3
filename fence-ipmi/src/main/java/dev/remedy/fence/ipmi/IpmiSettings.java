package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.internal.client.BmcLogin;
import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.Privilege;
import dev.remedy.fence.ipmi.internal.protocol.RakpExchange;
import dev.remedy.fence.ipmi.internal.protocol.SessionKeys;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The checked configuration of one {@code ipmi} agent: everything {@link AgentConfig#validate()} cannot know
 * (IPMI length limits, cipher suites, hex keys) is checked here, and every problem is reported at once.
 *
 * @param suites the cipher suites to try in order (17 then 3 unless {@code cipher} names one)
 */
record IpmiSettings(String host, int port, String user, Secret password, Optional<Secret> bmcKey,
        List<CipherSuite> suites, Privilege privilege, boolean cycle, Duration powerWait, Duration powerTimeout,
        Duration loginTimeout, Duration pollInterval, Duration retransmitInterval, Duration softOffTimeout,
        boolean sessionReuse) {

    /** Reads and checks {@code config}. */
    static IpmiSettings of(AgentConfig config) {
        config.requireValid();
        List<ConfigProblem> problems = new ArrayList<>();
        if (!config.bool("lanplus")) {
            problems.add(new ConfigProblem("lanplus", "is false, but IPMI v1.5 sessions (MD5 or no authentication) "
                    + "are not supported because they are insecure", "enable IPMI v2.0 (lanplus) on the BMC and "
                    + "set lanplus=true"));
        }
        int port = config.integer("ipport");
        if (port < 1 || port > 65535) {
            problems.add(new ConfigProblem("ipport", "is " + port + ", not a UDP port", "give 1 to 65535 (623 is usual)"));
        }
        String user = config.string("username");
        if (user.length() > RakpExchange.MAX_USER_NAME_LENGTH || !StandardCharsets.US_ASCII.newEncoder().canEncode(user)) {
            problems.add(new ConfigProblem("username", "is not ASCII of at most 16 characters",
                    "use the IPMI user name as configured on the BMC"));
        }
        Secret password = config.secret("password").orElseThrow();
        byte[] raw = password.revealBytes();
        if (raw.length > SessionKeys.MAX_KEY_LENGTH) {
            problems.add(new ConfigProblem("password", "is longer than 20 bytes, the IPMI v2.0 limit",
                    "shorten the password on the BMC and here"));
        }
        Arrays.fill(raw, (byte) 0);
        List<CipherSuite> suites = suites(config, problems);
        Optional<Secret> kg = config.secret("hexadecimal_kg").filter(key -> !key.blank());
        kg.ifPresent(key -> {
            if (!BmcLogin.isHexKey(key)) {
                problems.add(new ConfigProblem("hexadecimal_kg", "is not an even number of hexadecimal digits, "
                        + "at most 40", "give the BMC key as hex, e.g. 0123456789abcdef"));
            }
        });
        for (String name : List.of("poll_interval", "retransmit_interval", "login_timeout", "power_timeout")) {
            if (config.duration(name).isZero()) {
                problems.add(new ConfigProblem(name, "is zero", "give at least 1ms"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(IpmiFenceAgentProvider.TYPE, problems);
        }
        return new IpmiSettings(config.string("ip"), port, user, password, kg, suites,
                Privilege.named(config.string("privlvl")), config.string("method").equals("cycle"),
                config.duration("power_wait"), config.duration("power_timeout"), config.duration("login_timeout"),
                config.duration("poll_interval"), config.duration("retransmit_interval"),
                config.duration("soft_off_timeout"), config.bool("session_reuse"));
    }

    private static List<CipherSuite> suites(AgentConfig config, List<ConfigProblem> problems) {
        if (!config.isSet("cipher")) {
            return List.of(CipherSuite.SUITE_17, CipherSuite.SUITE_3);
        }
        int id = config.integer("cipher");
        CipherSuite suite;
        try {
            suite = CipherSuite.of(id);
        } catch (IllegalArgumentException e) {
            problems.add(new ConfigProblem("cipher", "is " + id + ", a suite this agent does not speak",
                    "use 17 (SHA-256) or 3 (SHA-1), or leave it unset to try 17 then 3"));
            return List.of();
        }
        if (suite.insecure() && !config.bool("allow_insecure_cipher")) {
            problems.add(new ConfigProblem("cipher", "is 0, which authenticates nobody: anyone on the BMC's network "
                    + "could power the host off", "use 3 or 17; set allow_insecure_cipher=true only on an isolated "
                    + "network if the BMC offers nothing else"));
        }
        return List.of(suite);
    }

    /** The BMC as {@code host:port} for messages. */
    String bmc() {
        return host + ":" + port;
    }
}
