package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.fence.redfish.RedfishPduAgentProvider;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.RemedyException;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the fence_remedy_<type> launchers")
class LaunchersTest {

    private static final Path JAVA = Path.of("/opt/jdk 17/bin/java");
    private static final Path JAR = Path.of("/opt/it's/remedy.jar");

    @TempDir
    private Path dir;

    @Test
    @DisplayName("a launcher is named fence_remedy_ and the type, '-' turned to '_'")
    void names() {
        assertThat(Launchers.name("ipmi")).isEqualTo("fence_remedy_ipmi");
        assertThat(Launchers.name("redfish-pdu")).isEqualTo("fence_remedy_redfish_pdu");
    }

    @Test
    @DisplayName("the script runs java with the short-run flags on the jar, its paths quoted, naming the agent's"
            + " provider class, arguments and stdin passed on, with its class-data sharing archive when one is"
            + " current, writing one only from a device action, and no server unless resident")
    void script() {
        String script = Launchers.script(new RedfishPduAgentProvider(), JAVA, JAR, Launchers.Residence.ONE_SHOT);

        assertThat(script).startsWith("#!/bin/bash\n").contains(Launchers.MARKER);
        assertThat(script).as("every place filled in").doesNotContainPattern("@[A-Z_]+@");
        List<String> lines = script.lines().map(String::strip).toList();
        assertThat(lines).contains("java='/opt/jdk 17/bin/java'", "jar='/opt/it'\\''s/remedy.jar'",
                "cds=\"$jar.fence_remedy_redfish_pdu.jsa\"",
                "flags='-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -Xms16m -Xmx128m -XX:-UsePerfData"
                        + " -Xlog:cds=off -Xlog:cds+dynamic=off'",
                "agent=(fence-agent-protocol --type 'redfish-pdu' --provider"
                        + " 'dev.remedy.fence.redfish.RedfishPduAgentProvider' --)",
                "resident=no",
                "exec \"$java\" $flags -XX:SharedArchiveFile=\"$cds\" -jar \"$jar\" \"${agent[@]}\" \"$@\" <<OPTIONS",
                "metadata|meta-data|validate-all|manpage|-h|help) device_action=no ;;",
                "\"$java\" $flags -XX:ArchiveClassesAtExit=\"$cds.$$\" -jar \"$jar\" \"${agent[@]}\" \"$@\" <<OPTIONS",
                "mv -f \"$cds.$$\" \"$cds\" 2>/dev/null || rm -f \"$cds.$$\"");
    }

    @Test
    @DisplayName("a resident launcher starts the jar's agent server with its idle time, detached from the call")
    void residentScript() {
        String script = Launchers.script(new RedfishPduAgentProvider(), JAVA, JAR,
                Launchers.Residence.resident(Duration.ofMinutes(5)));

        List<String> lines = script.lines().map(String::strip).toList();
        assertThat(lines).contains("resident=yes", "server=\"$jar.agent-server\"",
                "setsid \"$java\" -XX:+UseSerialGC -Xshare:auto -Xms16m -Xmx128m -XX:-UsePerfData -jar \"$jar\""
                        + " fence-agent-server --jar \"$jar\" --idle 300 </dev/null >/dev/null 2>&1 &");
    }

    @Test
    @DisplayName("install writes one executable launcher per agent and replaces its own launchers")
    void install() throws Exception {
        List<FenceAgentProvider> agents = List.of(new FakeFenceAgentProvider());
        Files.writeString(dir.resolve("fence_remedy_fake"), "#!/bin/sh\n" + Launchers.MARKER + " old\n");

        List<Path> written = Launchers.install(dir, agents, JAVA, JAR, Launchers.Residence.ONE_SHOT);

        Path launcher = dir.resolve("fence_remedy_fake");
        assertThat(written).containsExactly(launcher);
        assertThat(Files.readString(launcher)).isEqualTo(Launchers.script(agents.get(0), JAVA, JAR, Launchers.Residence.ONE_SHOT));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(launcher))).isEqualTo("rwxr-xr-x");
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temporary file left").containsExactly(launcher);
        }
    }

    @Test
    @DisplayName("install refuses to replace a file that is not its launcher, and then writes nothing")
    void foreignFile() throws Exception {
        Path foreign = dir.resolve("fence_remedy_fake");
        Files.writeString(foreign, "#!/bin/sh\necho mine\n");

        assertThatThrownBy(() -> Launchers.install(dir, List.of(new FakeFenceAgentProvider()), JAVA, JAR,
                Launchers.Residence.ONE_SHOT))
                .isInstanceOf(RemedyException.class).hasMessageContaining(foreign.toString())
                .hasMessageContaining("is not a launcher written by remedy; nothing was written");
        assertThat(Files.readString(foreign)).isEqualTo("#!/bin/sh\necho mine\n");
    }

    @Test
    @DisplayName("install into something that is not a directory is refused")
    void notADirectory() {
        assertThatThrownBy(() -> Launchers.install(dir.resolve("missing"), List.of(), JAVA, JAR,
                Launchers.Residence.ONE_SHOT))
                .isInstanceOf(RemedyException.class).hasMessageContaining("is not a directory");
    }

    @Test
    @DisplayName("java is JAVA_HOME's when set, else the first java on PATH")
    void java() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home/bin"));
        Path onPath = Files.createDirectories(dir.resolve("path"));
        for (Path java : List.of(home.resolve("java"), onPath.resolve("java"))) {
            Files.writeString(java, "#!/bin/sh\n");
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        String path = dir.resolve("empty") + ":" + onPath;

        assertThat(Launchers.java(Map.of("JAVA_HOME", dir.resolve("home").toString(), "PATH", path)))
                .isEqualTo(home.resolve("java"));
        assertThat(Launchers.java(Map.of("PATH", path))).isEqualTo(onPath.resolve("java"));
    }
}
