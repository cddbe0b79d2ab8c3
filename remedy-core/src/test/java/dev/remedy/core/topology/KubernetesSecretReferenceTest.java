package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a secret parameter from a Kubernetes Secret, {secret: {name: N, key: K}}")
class KubernetesSecretReferenceTest {

    private final FenceConfigurationLoader loader = new FenceConfigurationLoader();

    private static String document(String bmcSecret, String nodeSecret) {
        return """
                templates:
                  bmc: {agent: fake, secrets: {password: %s}}
                topologies:
                  - name: default
                    power_management: {levels: [[bmc]]}
                nodes:
                  worker-1: {bmc: {plug: w1}}
                  worker-2: {bmc: {plug: w2, password: %s}}
                """.formatted(bmcSecret, nodeSecret);
    }

    private List<String> problems(String text) {
        return catchThrowableOfType(FenceConfigurationException.class,
                () -> loader.parse(text, "fence.yaml", TestAgents.registry())).issues().stream()
                .map(ConfigProblem::toString).toList();
    }

    @Test
    @DisplayName("is read under secrets and per node, and a resolver for it gives each node its own value")
    void read() {
        FenceConfiguration config = loader.parse(document("{secret: {name: bmc-credentials, key: password}}",
                "{secret: {name: worker-2.bmc, key: .pass_word-2}}"), "fence.yaml", TestAgents.registry());
        SecretResolver secrets = SecretResolver.of(Map.of(
                SecretRef.secret("bmc-credentials", "password"), Secret.of("shared-pw"),
                SecretRef.secret("worker-2.bmc", ".pass_word-2"), Secret.of("own-pw")));

        NodePlan one = config.planFor("worker-1", Map.of(), secrets).orElseThrow();
        NodePlan two = config.planFor("worker-2", Map.of(), secrets).orElseThrow();

        assertThat(one.step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0).config().secret("password")
                .orElseThrow().reveal()).isEqualTo("shared-pw");
        assertThat(two.step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0).config().secret("password")
                .orElseThrow().reveal()).isEqualTo("own-pw");
        assertThat(config.toString()).contains("{secret: {name: bmc-credentials, key: password}}")
                .doesNotContain("shared-pw");
    }

    @Test
    @DisplayName("names a missing name and a missing key both, each at its path")
    void missingNameAndKey() {
        assertThat(problems(document("{secret: {}}", "{secret: {name: own}}"))).startsWith(
                "fence.yaml:templates.bmc.secrets.password.secret.name: is missing; give the name of a Secret in the "
                        + "operator's namespace",
                "fence.yaml:templates.bmc.secrets.password.secret.key: is missing; give the key of the Secret's data "
                        + "that holds the secret",
                "fence.yaml:nodes.worker-2.bmc.password.secret.key: is missing; give the key of the Secret's data "
                        + "that holds the secret");
    }

    @Test
    @DisplayName("refuses bad types, bad names and other keys without showing a value")
    void badTypes() {
        List<String> found = problems(document("{secret: hunter2}",
                "{secret: {name: [a], key: 7, password: hunter3}}"));
        assertThat(found).startsWith(
                "fence.yaml:templates.bmc.secrets.password.secret: must be a mapping {name: N, key: K}: the name of "
                        + "a Secret in the operator's namespace and the key of its data that holds the secret; not "
                        + "text",
                "fence.yaml:nodes.worker-2.bmc.password.secret: must have only the keys name and key; it has other "
                        + "keys (not shown, in case one is the secret itself)",
                "fence.yaml:nodes.worker-2.bmc.password.secret.name: must be the name of a Secret in the operator's "
                        + "namespace as text, not a list",
                "fence.yaml:nodes.worker-2.bmc.password.secret.key: must be the key of the Secret's data that holds "
                        + "the secret as text, not a number");
        assertThat(problems(document("{secret: {name: Hunter_2, key: 'a/b'}}", "{secret: {name: ok, key: ok}}")))
                .startsWith("fence.yaml:templates.bmc.secrets.password.secret.name: is not a Secret name "
                                + "(lower-case letters, digits, '-' and '.', at most 253 characters); the value is not "
                                + "shown in case it is the secret itself",
                        "fence.yaml:templates.bmc.secrets.password.secret.key: is not a key of a Secret's data "
                                + "(letters, digits, '-', '_' and '.', at most 253 characters); the value is not shown "
                                + "in case it is the secret itself");
        assertThat(String.join("\n", found)).doesNotContain("hunter");
    }

    @Test
    @DisplayName("is one kind of reference: next to env or file it is refused, and a plain parameter cannot take it")
    void exactlyOne() {
        assertThat(problems(document("{env: PW, secret: {name: a, key: b}}", "{secret: {name: a, key: b}}")))
                .startsWith("fence.yaml:templates.bmc.secrets.password: must be exactly one of {env: VAR}, "
                        + "{file: PATH} or {secret: {name: N, key: K}}");
        String plain = document("{env: PW}", "{env: PW}").replace("{plug: w1}",
                "{plug: {secret: {name: a, key: b}}}");
        assertThat(problems(plain)).startsWith("fence.yaml:nodes.worker-1.bmc.plug: 'plug' is not secret: give "
                + "its value in plain text, not as a secret reference");
    }

    @Test
    @DisplayName("the system resolver refuses it, saying the operator reads Kubernetes Secrets")
    void systemResolverRefuses() {
        assertThatThrownBy(() -> SecretResolver.system(name -> "x").resolve(SecretRef.secret("bmc", "password")))
                .isInstanceOf(RemedyException.class)
                .hasMessageStartingWith("{secret: {name: bmc, key: password}} names a Kubernetes Secret, which only "
                        + "the operator reads (through a Kubernetes secret resolver")
                .hasMessageContaining("{env: VAR} or {file: PATH}");
    }

    @Test
    @DisplayName("a reference keeps name and key apart and refuses what a Secret cannot be called")
    void reference() {
        SecretRef ref = SecretRef.secret("bmc.credentials", "pass.word");
        assertThat(ref.kind()).isEqualTo(SecretRef.Kind.SECRET);
        assertThat(ref.secretName()).isEqualTo("bmc.credentials");
        assertThat(ref.secretKey()).isEqualTo("pass.word");
        assertThat(ref).hasToString("{secret: {name: bmc.credentials, key: pass.word}}");
        assertThatThrownBy(() -> SecretRef.secret("BMC", "password")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("BMC");
        assertThatThrownBy(() -> SecretRef.secret("bmc", "..")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SecretRef(SecretRef.Kind.SECRET, "no-key"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SecretRef.env("PW").secretName()).isInstanceOf(IllegalStateException.class);
    }
}
