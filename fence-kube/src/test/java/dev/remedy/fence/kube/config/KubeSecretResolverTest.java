package dev.remedy.fence.kube.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.topology.SecretRef;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.RemedyException;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
@DisplayName("KubeSecretResolver")
class KubeSecretResolverTest {

    private static final String NAMESPACE = "remedy";

    KubernetesClient client;

    private KubeSecretResolver resolver() {
        return new KubeSecretResolver(client, NAMESPACE, SecretResolver.system(Map.of("PW", "from-env")::get));
    }

    private void secret(String name, Map<String, byte[]> data) {
        Map<String, String> encoded = new java.util.LinkedHashMap<>();
        data.forEach((key, value) -> encoded.put(key, Base64.getEncoder().encodeToString(value)));
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName(name)
                .endMetadata().withData(encoded).build()).create();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("reads a key of a Secret in its namespace, without the one trailing line break")
    void resolves() {
        secret("bmc", Map.of("password", utf8("s3cr3t é\n"), "user", utf8("admin")));
        client.secrets().inNamespace("elsewhere").resource(new SecretBuilder().withNewMetadata().withName("other")
                .endMetadata().withData(Map.of("password", "b3RoZXI=")).build()).create();

        assertThat(resolver().resolve(SecretRef.secret("bmc", "password")).reveal()).isEqualTo("s3cr3t é");
        assertThat(resolver().resolve(SecretRef.secret("bmc", "user")).reveal()).isEqualTo("admin");
        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("other", "password")))
                .hasMessageStartingWith("Secret 'remedy/other' does not exist");
    }

    @Test
    @DisplayName("names a missing Secret and a missing key (with the keys there are), never a value")
    void missing() {
        secret("bmc", Map.of("user", utf8("admin-value"), "pass", utf8("the-value")));

        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("nope", "password")))
                .isInstanceOf(RemedyException.class)
                .hasMessage("Secret 'remedy/nope' does not exist; create it in the operator's namespace with the key "
                        + "'password'");
        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("bmc", "password")))
                .isInstanceOf(RemedyException.class)
                .hasMessage("key 'password' of Secret 'remedy/bmc' does not exist; the Secret has the keys pass, "
                        + "user: add the key or correct the reference")
                .hasMessageNotContaining("value");
    }

    @Test
    @DisplayName("refuses an empty value, one over 64 KiB and one that is not UTF-8 text, naming the key")
    void bounded() {
        secret("bmc", Map.of("empty", new byte[0], "newline", utf8("\n"),
                "huge", new byte[SecretResolver.MAX_FILE_BYTES + 1], "binary", new byte[] {(byte) 0xff, (byte) 0xfe}));

        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("bmc", "empty")))
                .hasMessageStartingWith("key 'empty' of Secret 'remedy/bmc' is empty");
        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("bmc", "newline")))
                .hasMessageStartingWith("key 'newline' of Secret 'remedy/bmc' is empty");
        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("bmc", "huge")))
                .hasMessageStartingWith("key 'huge' of Secret 'remedy/bmc' is larger than 64 KiB");
        assertThatThrownBy(() -> resolver().resolve(SecretRef.secret("bmc", "binary")))
                .hasMessage("key 'binary' of Secret 'remedy/bmc' is not UTF-8 text; a secret parameter is text");
        // Exactly 64 KiB is read.
        secret("big", Map.of("k", utf8("x".repeat(SecretResolver.MAX_FILE_BYTES))));
        assertThat(resolver().resolve(SecretRef.secret("big", "k")).reveal()).hasSize(SecretResolver.MAX_FILE_BYTES);
    }

    @Test
    @DisplayName("gives other references to the other resolver")
    void others() {
        assertThat(resolver().resolve(SecretRef.env("PW")).reveal()).isEqualTo("from-env");
        assertThatThrownBy(() -> resolver().resolve(SecretRef.env("UNSET")))
                .hasMessageStartingWith("environment variable 'UNSET' is not set");
    }
}
