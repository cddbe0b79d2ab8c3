package dev.remedy.fence.clusterlabs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the environment of an agent process")
class AgentEnvironmentTest {

    @Test
    @DisplayName("keeps the search path, home, certificates and proxies, drops the rest (a secret in a variable)")
    void filtered() {
        Map<String, String> environment = AgentEnvironment.filter(Map.of("PATH", "/opt/bin:/usr/bin", "HOME", "/root",
                "BMC_PASSWORD", "from --secret-env", "https_proxy", "http://proxy:3128", "LANG", "de_DE.UTF-8"));

        assertThat(environment).containsOnly(Map.entry("PATH", "/opt/bin:/usr/bin"), Map.entry("HOME", "/root"),
                Map.entry("https_proxy", "http://proxy:3128"), Map.entry("LANG", "C"), Map.entry("LC_ALL", "C"));
    }

    @Test
    @DisplayName("gives a search path when the JVM has none")
    void defaultPath() {
        assertThat(AgentEnvironment.filter(Map.of())).containsEntry("PATH", AgentEnvironment.DEFAULT_PATH);
    }
}
