package dev.remedy.fence.clusterlabs.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The environment an agent process gets: only the variables it needs to find programs, certificates and proxies,
 * never the rest of this JVM's, which may hold secrets (a password that {@code remedy fence --secret-env} read
 * from a variable). Secrets go to the agent on its standard input only. Locale is {@code C}, as fence-agents sets it.
 */
final class AgentEnvironment {

    /** The variables passed on, when set. */
    static final Set<String> PASSED = Set.of("PATH", "HOME", "TZ", "TMPDIR", "http_proxy", "https_proxy", "no_proxy",
            "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR");

    /** The search path when this JVM has none. */
    static final String DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private AgentEnvironment() {
    }

    /** The variables of {@code source} an agent gets, with {@code LANG} and {@code LC_ALL} set to {@code C}. */
    static Map<String, String> filter(Map<String, String> source) {
        Map<String, String> environment = new LinkedHashMap<>();
        source.forEach((name, value) -> {
            if (PASSED.contains(name)) {
                environment.put(name, value);
            }
        });
        environment.putIfAbsent("PATH", DEFAULT_PATH);
        environment.put("LANG", "C");
        environment.put("LC_ALL", "C");
        return environment;
    }
}
