package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceConfiguration.withNodeConfigs: the Node remedy design's fence-config-<node>")
class NodeConfigsTest {

    private static final String FENCE = """
            templates:
              eaton-pdu: {agent: fake, parameters: {username: eaton}, secrets: {password: {env: PDU_PASSWORD}}}
              fc-switch-brocade: {agent: switch, secrets: {token: {secret: {name: brocade, key: token}}}}
            topologies:
              - name: default
                power_management: {timeout: 90s, retries: 2, levels: [[eaton-pdu]]}
            nodes:
              host1: {eaton-pdu: {plug: "4"}}
            """;
    private static final SecretResolver SECRETS = SecretResolver.of(Map.of(
            SecretRef.env("PDU_PASSWORD"), Secret.of("pdu-pw"),
            SecretRef.secret("brocade", "token"), Secret.of("brocade-token"),
            SecretRef.secret("host0-pdu", "password"), Secret.of("host0-pw")));

    private final FenceConfiguration base = new FenceConfigurationLoader().parse(FENCE, "fence.yaml",
            TestAgents.registry());

    /** The design's bare-metal example, with remedy's template names. */
    private static Map<String, String> design(String node) {
        return Map.of(
                "config.properties", "node_name=" + node + "\nisolation=fc-off\npower_management=eaton-off eaton-on\n"
                        + "recovery=fc-on\n",
                "fence-method-fc-on", "template=fence-method-template-fc-switch-brocade\nport=2\naction=on",
                "fence-method-fc-off", "template=fence-method-template-fc-switch-brocade\nport=2\naction=off",
                "fence-method-eaton-on", "template=fence-method-template-eaton-pdu\nplug=1\naction=on",
                "fence-method-eaton-off", "# the outlet of " + node + "\ntemplate=fence-method-template-eaton-pdu\n"
                        + "plug=1\naction=off");
    }

    private static List<List<String>> names(StepPlan step) {
        return step.levels().stream().map(level -> level.stream().map(ResolvedMethod::name).toList()).toList();
    }

    private List<String> problems(Map<String, Map<String, String>> configs) {
        return catchThrowableOfType(FenceConfigurationException.class, () -> base.withNodeConfigs(configs)).issues()
                .stream().map(ConfigProblem::toString).toList();
    }

    @Test
    @DisplayName("reads the design's example into the node's plan: one level per step, off and on of a device once")
    void designExample() {
        FenceConfiguration config = base.withNodeConfigs(Map.of("fence-config-host0", design("host0")));

        NodePlan plan = config.planFor("host0", Map.of(), SECRETS).orElseThrow();

        assertThat(config.nodeConfigNames()).containsExactly("host0");
        assertThat(plan.topology()).isEqualTo("fence-config-host0");
        assertThat(names(plan.step(FenceStep.ISOLATION))).containsExactly(List.of("fc-off"));
        assertThat(names(plan.step(FenceStep.POWER_MANAGEMENT))).containsExactly(List.of("eaton-off"));
        assertThat(names(plan.step(FenceStep.RECOVERY))).containsExactly(List.of("fc-on"));
        ResolvedMethod pdu = plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0);
        assertThat(pdu.agentType()).isEqualTo("fake");
        assertThat(pdu.config().text("plug")).contains("1");
        assertThat(pdu.config().text("username")).contains("eaton");
        assertThat(pdu.config().toString()).doesNotContain("action");
        assertThat(pdu.config().secret("password").orElseThrow().reveal()).isEqualTo("pdu-pw");
        assertThat(plan.step(FenceStep.ISOLATION).levels().get(0).get(0).config().secret("token").orElseThrow()
                .reveal()).isEqualTo("brocade-token");
        // Timeouts and retries come from the topology the labels match; the methods from the node's own entries.
        assertThat(plan.step(FenceStep.POWER_MANAGEMENT).timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(plan.step(FenceStep.POWER_MANAGEMENT).retries()).isEqualTo(2);
        // Another node keeps the topologies.
        assertThat(config.planFor("host1", Map.of(), SECRETS).orElseThrow().topology()).isEqualTo("default");
    }

    @Test
    @DisplayName("keeps two outlets of one template apart (both must be off), with a node's own secret reference")
    void twoOutlets() {
        FenceConfiguration config = base.withNodeConfigs(Map.of("fence-config-host0", Map.of(
                "config.properties", "power_management = psu-a  psu-b",
                "fence-method-psu-a", "template=fence-method-template-eaton-pdu\nplug=1",
                "fence-method-psu-b", "template=fence-method-template-eaton-pdu\nplug=2\n"
                        + "password={secret: {name: host0-pdu, key: password}}")));

        NodePlan plan = config.planFor("host0", Map.of(), SECRETS).orElseThrow();

        assertThat(names(plan.step(FenceStep.POWER_MANAGEMENT))).containsExactly(List.of("psu-a", "psu-b"));
        List<ResolvedMethod> level = plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0);
        assertThat(level.get(1).config().text("plug")).contains("2");
        assertThat(level.get(0).config().secret("password").orElseThrow().reveal()).isEqualTo("pdu-pw");
        assertThat(level.get(1).config().secret("password").orElseThrow().reveal()).isEqualTo("host0-pw");
        assertThat(plan.step(FenceStep.ISOLATION).levels()).isEmpty();
        assertThat(plan.step(FenceStep.ISOLATION).timeout()).isEqualTo(FenceConfiguration.DEFAULT_STEP_TIMEOUT);
    }

    @Test
    @DisplayName("names every problem of every configuration, each with its configuration and entry")
    void everyProblem() {
        List<String> found = problems(Map.of(
                "fence-config-host0", Map.of(
                        "config.properties", "node_name=host9\npower_management=eaton-of\nkdump=yes\nnot a line",
                        "fence-method-eaton-off", "template=eaton-pdu\nplug=1",
                        "fence-method-fc", "template=fence-method-template-fc-switch-brocade\nport=70000\n"
                                + "token=hunter2\naction=explode",
                        "notes", "x"),
                "fence-config-host1", Map.of("fence-method-x", "template=fence-method-template-nope"),
                "host2", Map.of("config.properties", "")));

        assertThat(found).contains(
                "fence-config-host0:fence-method-eaton-off.template: is 'eaton-pdu'; a template is named "
                        + "fence-method-template-<template>, such as fence-method-template-eaton-pdu",
                "fence-config-host0:fence-method-fc.action: is 'explode'; give one of on, off, reboot (the fence flow "
                        + "runs OFF, STATUS and ON of each step itself)",
                "fence-config-host0:fence-method-fc.token: 'token' is secret: give it as {env: VAR}, {file: PATH} or "
                        + "{secret: {name: N, key: K}}, never in plain text",
                "fence-config-host0:notes: is neither config.properties nor a method fence-method-<method>; rename or "
                        + "remove it",
                "fence-config-host0:[\"config.properties\"].kdump: is not a key here; keys: node_name, isolation, "
                        + "power_management, recovery",
                "fence-config-host0:[\"config.properties\"]: line 4 is not key=value (not shown, in case it holds a "
                        + "secret); write one property per line, such as plug=2",
                "fence-config-host0:[\"config.properties\"].node_name: is 'host9', but this configuration is named "
                        + "for node 'host0'; name the ConfigMap fence-config-host9 or correct node_name",
                "fence-config-host0:[\"config.properties\"].power_management: names the method 'eaton-of', which has "
                        + "no entry fence-method-eaton-of; did you mean 'eaton-off'? methods: eaton-off, fc",
                "fence-config-host1:fence-method-x.template: names the unknown template 'nope'; templates of the "
                        + "fence configuration: eaton-pdu, fc-switch-brocade",
                "fence-config-host1: has no entry config.properties; give it, with the methods of each step, such as "
                        + "power_management=bmc and an entry fence-method-bmc",
                "host2: is not the configuration of a node: its name must be fence-config-<node>");
        assertThat(found).anySatisfy(p -> assertThat(p).startsWith("fence-config-host0:fence-method-fc.port: "));
        assertThat(String.join("\n", found)).doesNotContain("hunter2");
    }

    @Test
    @DisplayName("refuses a fabric method under power management and a required parameter no one gives")
    void checks() {
        List<String> found = problems(Map.of("fence-config-host0", Map.of(
                "config.properties", "power_management=fc pdu",
                "fence-method-fc", "template=fence-method-template-fc-switch-brocade\nport=3",
                "fence-method-pdu", "template=fence-method-template-eaton-pdu")));

        assertThat(found).containsExactlyInAnyOrder(
                "fence-config-host0:fence-method-pdu: misses the required parameter 'plug' of agent 'fake'; give it "
                        + "here or in template 'eaton-pdu'",
                "fence-config-host0:[\"config.properties\"].power_management: names template 'fc-switch-brocade' of "
                        + "agent 'switch': fabric fencing (it cuts the node off a network or storage fabric) does not "
                        + "stop the machine, so it cannot confirm the node is off: put method 'fc-switch-brocade' "
                        + "under isolation, and fence the machine here with a power agent");
    }

    @Test
    @DisplayName("a secret that cannot be read is named with the node's configuration and entry, never its value")
    void unreadableSecret() {
        FenceConfiguration config = base.withNodeConfigs(Map.of("fence-config-host0", Map.of(
                "config.properties", "power_management=pdu",
                "fence-method-pdu", "template=fence-method-template-eaton-pdu\nplug=1\n"
                        + "password={secret: {name: missing, key: password}}")));

        List<ConfigProblem> issues = catchThrowableOfType(FenceConfigurationException.class,
                () -> config.planFor("host0", Map.of(), SECRETS)).issues();

        assertThat(issues).singleElement().satisfies(p -> {
            assertThat(p.source()).isEqualTo("fence-config-host0");
            assertThat(p.path()).isEqualTo("fence-method-pdu.password");
            assertThat(p.message()).startsWith("node 'host0', method 'pdu' of template 'eaton-pdu' (agent 'fake'): "
                    + "secret parameter 'password' cannot be read: no secret is known for {secret: {name: missing, "
                    + "key: password}}");
        });
    }
}
