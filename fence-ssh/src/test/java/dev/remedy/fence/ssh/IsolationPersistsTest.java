package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FenceAgentProvider#isolationPersists}: the configured profile's own word, read without a connection. */
class IsolationPersistsTest {

    private static final String SWITCH = """
            profiles:
              - name: %s
                kind: fabric
                prompt: 'sw# ?'
                plug: '[0-9]{1,2}'
                status: {command: 'show port {plug}', on: '^up', off: '^down'}
                on: ['port {plug} up']
                off: ['port {plug} down']
            %s""";

    @TempDir
    Path dir;

    private static AgentConfig.Builder config(FenceAgentProvider provider, String profile) {
        return provider.configure().set("ip", "192.0.2.1").set("username", "fence")
                .secret("password", Secret.of("fabric-secret")).set("profile", profile).set("plug", "5");
    }

    private Path profileFile(String name, String persists) throws IOException {
        return Files.writeString(dir.resolve(name + ".yaml"), SWITCH.formatted(name, persists));
    }

    @Test
    @DisplayName("the built-in brocade-fos and cisco-ios profiles persist their isolation")
    void builtInFabricProfiles() {
        SshFabricAgentProvider fabric = new SshFabricAgentProvider();

        assertThat(fabric.isolationPersists(config(fabric, "brocade-fos").build())).isTrue();
        assertThat(fabric.isolationPersists(config(fabric, "cisco-ios").build())).isTrue();
    }

    @Test
    @DisplayName("a profile_file fabric profile persists only if it says isolationPersists: true")
    void profileFile() throws IOException {
        SshFabricAgentProvider fabric = new SshFabricAgentProvider();

        assertThat(fabric.isolationPersists(config(fabric, "absent").set("profile_file",
                profileFile("absent", "").toString()).build())).isFalse();
        assertThat(fabric.isolationPersists(config(fabric, "running-only").set("profile_file",
                profileFile("running-only", "    isolationPersists: false").toString()).build())).isFalse();
        assertThat(fabric.isolationPersists(config(fabric, "saved").set("profile_file",
                profileFile("saved", "    isolationPersists: true").toString()).build())).isTrue();
    }

    @Test
    @DisplayName("a profile that cannot be resolved (unknown, another kind, a broken or missing file) does not persist")
    void unresolved() throws IOException {
        SshFabricAgentProvider fabric = new SshFabricAgentProvider();
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "profiles: [{name: saved, kind: fabric}]");

        assertThat(fabric.isolationPersists(config(fabric, "no-such-switch").build())).isFalse();
        assertThat(fabric.isolationPersists(config(fabric, "apc").build())).isFalse();
        assertThat(fabric.isolationPersists(config(fabric, "saved").set("profile_file", broken.toString()).build()))
                .isFalse();
        assertThat(fabric.isolationPersists(config(fabric, "saved").set("profile_file",
                dir.resolve("missing.yaml").toString()).build())).isFalse();
        assertThat(fabric.isolationPersists(fabric.configure().build())).isFalse();
    }

    @Test
    @DisplayName("power and soft fencing agents never say their isolation persists")
    void otherKinds() {
        SshFenceAgentProvider power = new SshFenceAgentProvider();
        SshHostAgentProvider soft = new SshHostAgentProvider();

        assertThat(power.isolationPersists(config(power, "apc").build())).isFalse();
        assertThat(soft.isolationPersists(soft.configure().set("ip", "node1").set("username", "root")
                .secret("password", Secret.of("host-secret")).set("profile", "linux-sysrq").build())).isFalse();
    }
}
