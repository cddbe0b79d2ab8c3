package dev.remedy.fence.redfish;

import dev.remedy.fence.redfish.internal.client.AuthMode;
import dev.remedy.fence.redfish.internal.client.TlsTrust;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The checked configuration of one {@code redfish} agent; every problem {@link AgentConfig#validate()} cannot
 * see (port range, TLS options that exclude each other, a CA file that does not exist) is reported at once.
 *
 * @param trust the TLS trust: {@code system}, {@code ca:<path>}, {@code pin:<fingerprint>} or {@code insecure}
 * @param maxResponseSize the largest response body read, in bytes
 */
record RedfishSettings(String type, String host, int port, boolean tls, String user, Secret password, String trust,
        Optional<String> systemsUri, Optional<String> pdu, Optional<String> plug, AuthMode auth,
        Duration gracefulOffTimeout, Duration powerTimeout, Duration pollInterval, Duration requestTimeout,
        long maxResponseSize) {

    /** The default of {@code max_response_size}: 4 MiB, far more than any Redfish resource a fence agent reads. */
    static final int DEFAULT_MAX_RESPONSE_SIZE = 4 << 20;
    /** The smallest {@code max_response_size}: 64 KiB. */
    static final int MIN_MAX_RESPONSE_SIZE = 64 << 10;
    /** The largest {@code max_response_size}: 256 MiB. */
    static final int MAX_MAX_RESPONSE_SIZE = 256 << 20;

    /** What each way to trust the service's certificate does, for the problem of several given at once. */
    private static final Map<String, String> TRUSTS = Map.of("ca_file", "ca_file verifies its chain and host name",
            "tls_fingerprint", "tls_fingerprint trusts that one certificate alone",
            "ssl_insecure", "ssl_insecure trusts any (unsafe)");

    /** Reads and checks {@code config} (of the {@code redfish} or the {@code redfish-pdu} agent). */
    static RedfishSettings of(AgentConfig config) {
        config.requireValid();
        List<ConfigProblem> problems = new ArrayList<>();
        int port = config.integer("ipport");
        if (port < 1 || port > 65535) {
            problems.add(new ConfigProblem("ipport", "is " + port + ", not a TCP port", "give 1 to 65535 (443 is usual)"));
        }
        Optional<String> caFile = config.text("ca_file").filter(text -> !text.isBlank());
        Optional<String> fingerprint = config.text("tls_fingerprint").filter(text -> !text.isBlank());
        boolean insecure = config.bool("ssl_insecure");
        List<String> trusts = new ArrayList<>();
        caFile.ifPresent(path -> trusts.add("ca_file"));
        fingerprint.ifPresent(pin -> trusts.add("tls_fingerprint"));
        if (insecure) {
            trusts.add("ssl_insecure");
        }
        if (trusts.size() > 1) {
            problems.add(new ConfigProblem(trusts.get(trusts.size() - 1), String.join(" and ", trusts) + " are "
                    + (trusts.size() > 2 ? "all " : "both ") + "given, and they exclude each other", "keep one way to "
                    + "trust the BMC's certificate: " + String.join(", ", trusts.stream().map(TRUSTS::get).toList())));
        }
        caFile.filter(path -> !Files.isReadable(Path.of(path))).ifPresent(path -> problems.add(new ConfigProblem(
                "ca_file", "'" + path + "' is not a readable file", "give the path of a PEM CA bundle")));
        fingerprint.ifPresent(pin -> {
            try {
                TlsTrust.parseFingerprint(pin);
            } catch (IllegalArgumentException e) {
                problems.add(new ConfigProblem("tls_fingerprint", "is not a SHA-256 fingerprint", e.getMessage()));
            }
        });
        Optional<String> systemsUri = optional(config, "systems_uri");
        systemsUri.filter(uri -> !uri.startsWith("/")).ifPresent(uri -> problems.add(new ConfigProblem(
                "systems_uri", "'" + uri + "' is not a path", "give the system's path, e.g. /redfish/v1/Systems/1")));
        for (String name : List.of("power_timeout", "poll_interval", "request_timeout")) {
            if (config.duration(name).isZero()) {
                problems.add(new ConfigProblem(name, "is zero", "give at least 1ms"));
            }
        }
        int maxResponseSize = config.integer("max_response_size");
        if (maxResponseSize < MIN_MAX_RESPONSE_SIZE || maxResponseSize > MAX_MAX_RESPONSE_SIZE) {
            problems.add(new ConfigProblem("max_response_size", "is " + maxResponseSize + " bytes, outside "
                    + MIN_MAX_RESPONSE_SIZE + " (64 KiB) to " + MAX_MAX_RESPONSE_SIZE + " (256 MiB)", "give a size in"
                    + " bytes in that range; the default " + DEFAULT_MAX_RESPONSE_SIZE + " (4 MiB) fits every "
                    + "Redfish service known"));
        }
        String host = config.string("ip");
        if (host.isBlank() || host.contains("/") || host.chars().anyMatch(Character::isWhitespace)) {
            problems.add(new ConfigProblem("ip", "'" + host + "' is not a host name or address",
                    "give the BMC's host name or IP address, without scheme or path (https://... goes in ssl)"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(config.agentType(), problems);
        }
        String trust = caFile.map(path -> "ca:" + path).orElse(fingerprint.map(pin -> "pin:" + pin)
                .orElse(insecure ? "insecure" : "system"));
        Duration graceful = declared(config, "graceful_off_timeout") ? config.duration("graceful_off_timeout")
                : Duration.ZERO;
        return new RedfishSettings(config.agentType(), host, port, config.bool("ssl"), config.string("username"),
                config.secret("password").orElseThrow(), trust, systemsUri, optional(config, "pdu"),
                optional(config, "plug"), AuthMode.valueOf(config.string("auth").toUpperCase(Locale.ROOT)), graceful,
                config.duration("power_timeout"), config.duration("poll_interval"), config.duration("request_timeout"),
                maxResponseSize);
    }

    private static boolean declared(AgentConfig config, String name) {
        return config.parameters().stream().anyMatch(parameter -> parameter.name().equals(name));
    }

    private static Optional<String> optional(AgentConfig config, String name) {
        return declared(config, name) ? config.text(name).filter(text -> !text.isBlank()) : Optional.empty();
    }

    /** The service's base URI, {@code https://host:port}. */
    URI base() {
        String literal = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create((tls ? "https://" : "http://") + literal + ":" + port);
    }
}
