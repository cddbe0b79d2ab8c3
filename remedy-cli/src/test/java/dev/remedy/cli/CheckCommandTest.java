package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.ssh.SshFabricAgentProvider;
import dev.remedy.fence.ssh.SshFenceAgentProvider;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("remedy check")
class CheckCommandTest {

    private final CliRunner cli = new CliRunner().registry(FenceAgentRegistry.of(new IpmiFenceAgentProvider(),
            new SshFenceAgentProvider(), new SshFabricAgentProvider(), new FakeFenceAgentProvider()));

    static String resource(String name) {
        try {
            return Path.of(CheckCommandTest.class.getResource("/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @DisplayName("prints one OK line per valid file, saying what each is by its content, and exits 0")
    void validFiles() {
        String fence = resource("check/fence.yaml");
        String policies = resource("simulate/policies.yaml");
        String scenario = resource("simulate/single-node-failure.yaml");
        String profiles = resource("check/profiles.yaml");

        CliRunner.Result result = cli.run("check", fence, policies, scenario, profiles);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.err()).isEmpty();
        assertThat(result.outLines()).containsExactly(
                "OK " + fence + ": fence configuration, 2 nodes, 1 topology, 2 templates",
                "OK " + policies + ": policies, 1 policy (workers)",
                "OK " + scenario + ": scenario 'single node failure', 6 nodes, 1 event, runs 20m",
                "OK " + profiles + ": device profiles, 1 profile (raritan-px)");
    }

    @Test
    @DisplayName("a fabric isolation level whose isolation a switch reload undoes is valid, with a warning line;"
            + " a topology that would release workloads after that isolation is refused")
    void fabricIsolationThatDoesNotPersist(@TempDir Path dir) throws IOException {
        Path profiles = Files.writeString(dir.resolve("old-switch.yaml"), """
                profiles:
                  - name: old-switch
                    description: a switch whose port disable lasts until it reloads
                    kind: fabric
                    prompt: 'sw>\\s*'
                    plug: '[0-9]{1,2}'
                    status: {command: 'show {plug}', on: '^up$', off: '^down$'}
                    on: ['enable {plug}']
                    off: ['disable {plug}']
                """);
        String fence = """
                templates:
                  san: {agent: ssh-fabric, parameters: {username: admin, profile: brocade-fos,
                        host_key_fingerprint: "SHA256:umBVQs9WkpT6FKOULFIjG+nTw89iZzUahu1YIyuZoIE"},
                        secrets: {password: {env: SAN_PASSWORD}}}
                  lan: {agent: ssh-fabric, parameters: {username: admin, profile: old-switch, profile_file: %s,
                        host_key_fingerprint: "SHA256:umBVQs9WkpT6FKOULFIjG+nTw89iZzUahu1YIyuZoIE"},
                        secrets: {password: {env: LAN_PASSWORD}}}
                  bmc: {agent: ipmi, parameters: {username: admin}, secrets: {password: {env: BMC_PASSWORD}}}
                topologies:
                  - name: default
                    %sisolation: {levels: [[san], [lan]]}
                    power_management: {levels: [[bmc]]}
                nodes:
                  worker-1: {san: {ip: san-1, plug: "4"}, lan: {ip: sw-1, plug: "5"}, bmc: {ip: 10.0.0.11}}
                """;
        Path warned = Files.writeString(dir.resolve("fence.yaml"), fence.formatted(profiles, ""));
        Path refused = Files.writeString(dir.resolve("release-after-isolation.yaml"),
                fence.formatted(profiles, "releaseAfter: isolation\n    "));

        CliRunner.Result ok = cli.run("check", warned.toString());
        CliRunner.Result bad = cli.run("check", refused.toString());

        assertThat(ok.exitCode()).as(ok.toString()).isEqualTo(ExitCodes.OK);
        assertThat(ok.outLines()).containsExactly("OK " + warned + ": fence configuration, 1 node, 1 topology,"
                + " 3 templates", "  warning: " + warned + ": topology 'default', isolation level 2: template 'lan'"
                + " (agent 'ssh-fabric') isolates the node only until its device restarts: a reload while the node"
                + " is fenced re-admits it; use a device profile whose isolation persists");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bad.errLines()).contains("  " + refused + ":topologies[0].releaseAfter: is isolation, but template"
                + " 'lan' (agent 'ssh-fabric') isolates the node in a way that a restart of its device undoes (a switch"
                + " reload would re-admit the node while its workloads run elsewhere); use a device profile whose"
                + " isolation persists, or release after power");
    }

    @Test
    @DisplayName("recognises a file of SNMP device profiles by its OIDs, and lists every problem of a bad one")
    void snmpProfiles(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("pdu.yaml"), """
                profiles:
                  - name: my-pdu
                    kind: power
                    plug: '[1-9][0-9]?'
                    status: {oid: '1.3.6.1.4.1.99999.1.3.{index}', on: 1, off: 0}
                    on: {oid: '1.3.6.1.4.1.99999.1.4.{index}', value: 1}
                    off: {oid: '1.3.6.1.4.1.99999.1.4.{index}', value: 0}
                  - name: my-apc
                    kind: power
                    choose: [apc-spdu, apc-rpdu2]
                """);
        Path bad = Files.writeString(dir.resolve("bad.yaml"), """
                profiles:
                  - name: port
                    kind: fabric
                    plug: '[0-9]+'
                    status: {oid: '1.3.6.1.2.1.2.2.1.7', on: 1, off: 2}
                    on: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 1}
                    off: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 2}
                """);

        CliRunner.Result result = cli.run("check", good.toString(), "--snmp-profiles", bad.toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.outLines()).containsExactly("OK " + good + ": SNMP device profiles, 2 profiles (my-pdu, "
                + "my-apc)");
        assertThat(result.errLines()).first().asString().isEqualTo("FAILED " + bad + ": SNMP device profiles, "
                + "2 problems:");
        assertThat(result.err()).contains(bad + ":profiles[0].status.oid: has no {index}",
                bad + ":profiles[0].isolationPersists: is missing");
    }

    @Test
    @DisplayName("accepts Kubernetes Secret references without reading them (only the operator can)")
    void kubernetesSecretReferences(@TempDir Path dir) throws IOException {
        Path fence = Files.writeString(dir.resolve("fence.yaml"), """
                templates:
                  bmc: {agent: ipmi, parameters: {username: admin},
                        secrets: {password: {secret: {name: bmc-credentials, key: password}}}}
                topologies:
                  - name: default
                    power_management: {levels: [[bmc]]}
                nodes:
                  worker-1: {bmc: {ip: 10.0.0.11, password: {secret: {name: worker-1-bmc, key: password}}}}
                """);

        CliRunner.Result result = cli.run("check", fence.toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).containsExactly("OK " + fence + ": fence configuration, 1 node, 1 topology, "
                + "1 template");
    }

    @Test
    @DisplayName("reports the values the agents refuse (ipport 99999, cipher 0, a 25-character IPMI user, poll_interval"
            + " 0s, SSH plugs with ';' and '$(') all at once, each with file and path, and exits 3")
    void agentsRefuse() {
        String file = resource("check/agents-refuse.yaml");

        CliRunner.Result result = cli.run("check", file);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.out()).isEmpty();
        assertThat(result.errLines()).first().asString().isEqualTo("FAILED " + file + ": fence configuration, "
                + "6 problems:");
        assertThat(result.errLines()).anySatisfy(line -> assertThat(line).startsWith("  " + file
                + ":templates.bmc.parameters.cipher: ").contains("authenticates nobody"));
        assertThat(result.errLines()).anySatisfy(line -> assertThat(line).startsWith("  " + file
                + ":nodes.worker-1.bmc.ipport: ").contains("99999").contains("give 1 to 65535"));
        assertThat(result.errLines()).anySatisfy(line -> assertThat(line).startsWith("  " + file
                + ":nodes.worker-2.bmc.username: ").contains("at most 16 characters"));
        assertThat(result.errLines()).anySatisfy(line -> assertThat(line).startsWith("  " + file
                + ":nodes.worker-2.pdu.plug: ").contains("'8;reboot'"));
        assertThat(result.errLines()).anySatisfy(line -> assertThat(line).startsWith("  " + file
                + ":nodes.worker-3.bmc.poll_interval: ").contains("zero"));
        assertThat(result.errLines()).anySatisfy(line -> assertThat(line).startsWith("  " + file
                + ":nodes.worker-3.pdu.plug: ").contains("'$(reboot)'"));
    }

    @Test
    @DisplayName("reports every problem of a bad file, still says OK for the good ones, and exits 3")
    void mixed() {
        String good = resource("check/profiles.yaml");
        String bad = resource("check/agents-refuse.yaml");

        CliRunner.Result result = cli.run("check", good, bad);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.outLines()).containsExactly("OK " + good + ": device profiles, 1 profile (raritan-px)");
        assertThat(result.errLines()).filteredOn(line -> line.startsWith("  " + bad + ":")).hasSize(6);
        assertThat(result.errLines()).last().asString().isEqualTo("remedy: 1 of 2 files has problems");
    }

    @Test
    @DisplayName("refuses a file it cannot recognise, naming the flags that say what it is")
    void unknownKind() {
        String file = resource("check/unknown-kind.yaml");

        CliRunner.Result result = cli.run("check", file);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains(file).contains("cannot tell").contains("--fence-config")
                .contains("--policies").contains("--scenario").contains("--profiles");
    }

    @Test
    @DisplayName("reads a file named with a flag as that kind, so a fence configuration given as a scenario is refused")
    void kindByFlag() {
        String fence = resource("check/fence.yaml");

        CliRunner.Result asScenario = cli.run("check", "--scenario", fence);
        CliRunner.Result asFence = cli.run("check", "--fence-config", fence);

        assertThat(asScenario.exitCode()).as(asScenario.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(asScenario.err()).startsWith("FAILED " + fence + ": scenario, ")
                .contains(fence + ":templates: is not a key here");
        assertThat(asFence.exitCode()).as(asFence.toString()).isEqualTo(ExitCodes.OK);
    }

    @Test
    @DisplayName("finds the README's example files valid, with the agents found on the class path")
    void readmeExample() {
        Path examples = Path.of("..", "examples", "src", "test", "resources");
        String fence = examples.resolve("readme-fence.yaml").toString();
        String policies = examples.resolve("readme-policies.yaml").toString();
        String scenario = examples.resolve("scenarios/bmc-never-answers.yaml").toString();

        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.load()).run("check", fence, policies,
                scenario);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).hasSize(3).allSatisfy(line -> assertThat(line).startsWith("OK "));
    }

    @Test
    @DisplayName("asks for a file when none is given")
    void noFile() {
        CliRunner.Result result = cli.run("check");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("FILE").contains("remedy check --help");
    }
}
