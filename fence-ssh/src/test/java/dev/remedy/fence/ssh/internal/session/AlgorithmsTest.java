package dev.remedy.fence.ssh.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.jcraft.jsch.JSch;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AlgorithmsTest {

    @Test
    @DisplayName("only modern algorithms: no SHA-1, no CBC, no ssh-rsa signatures, no group1/group14-sha1")
    void modernOnly() {
        List<String> all = Algorithms.MODERN.values().stream().flatMap(list -> Arrays.stream(list.split(",")))
                .toList();

        assertThat(all).isNotEmpty().noneMatch(name -> name.contains("sha1") || name.endsWith("-cbc")
                || name.equals("ssh-rsa") || name.equals("ssh-dss") || name.startsWith("hmac-md5")
                || name.equals("hmac-sha1"));
        assertThat(Algorithms.MODERN.get("server_host_key")).contains("ssh-ed25519", "rsa-sha2-512", "rsa-sha2-256");
        assertThat(Algorithms.MODERN.get("PubkeyAcceptedAlgorithms")).startsWith("ssh-ed25519");
    }

    @Test
    @DisplayName("the legacy set keeps the modern algorithms first and adds SHA-1, CBC and ssh-rsa after them")
    void legacyAfterModern() {
        Algorithms.MODERN.forEach((key, modern) ->
                assertThat(Algorithms.WITH_LEGACY.get(key)).startsWith(modern + ","));
        assertThat(Algorithms.of(false)).isSameAs(Algorithms.MODERN);
        assertThat(Algorithms.of(true).get("server_host_key")).endsWith(",ssh-rsa");
    }

    @Test
    @DisplayName("every algorithm named is one this jsch knows")
    void knownToJsch() {
        Algorithms.WITH_LEGACY.forEach((key, list) -> {
            for (String name : list.split(",")) {
                if (!key.equals("PubkeyAcceptedAlgorithms") && !key.equals("server_host_key")) {
                    assertThat(JSch.getConfig(name)).as("jsch implementation of %s (%s)", name, key).isNotNull();
                }
            }
        });
    }

    @Test
    @DisplayName("fingerprints are OpenSSH's SHA256 form, and a pin must have that form")
    void fingerprints() {
        assertThat(HostKeyCheck.fingerprint(new byte[] {1, 2, 3})).matches(HostKeyPolicy.FINGERPRINT.pattern());
    }
}
