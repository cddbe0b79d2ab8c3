package dev.remedy.fence.ssh.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.config.profiles.Catalog;
import dev.remedy.spi.FencingKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileCatalogTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("ships the APC, Cisco IOS, Brocade FOS and two Linux soft-fencing profiles, each of its kind")
    void builtIn() {
        Catalog<DeviceProfile> catalog = ProfileCatalog.builtIn();

        assertThat(catalog.names()).containsExactlyInAnyOrderElementsOf(ProfileCatalog.BUILT_IN);
        assertThat(catalog.find("apc").orElseThrow().kind()).isEqualTo(FencingKind.POWER);
        assertThat(catalog.find("cisco-ios").orElseThrow().kind()).isEqualTo(FencingKind.FABRIC);
        assertThat(catalog.find("brocade-fos").orElseThrow().kind()).isEqualTo(FencingKind.FABRIC);
        assertThat(catalog.find("linux-node-agent").orElseThrow().kind()).isEqualTo(FencingKind.SOFT);
        assertThat(catalog.find("linux-sysrq").orElseThrow().reboot().orElseThrow().disconnects()).isTrue();
    }

    @Test
    @DisplayName("every built-in fabric profile says its isolation survives a device reload")
    void builtInFabricIsolationPersists() {
        Catalog<DeviceProfile> catalog = ProfileCatalog.builtIn();

        assertThat(catalog.names()).map(name -> catalog.find(name).orElseThrow())
                .filteredOn(profile -> profile.kind() == FencingKind.FABRIC).isNotEmpty()
                .allSatisfy(profile -> assertThat(profile.isolationPersists()).as(profile.name()).isTrue());
    }

    @Test
    @DisplayName("the shipped patterns read the replies of the real devices")
    void shippedPatterns() {
        DeviceProfile apc = ProfileCatalog.builtIn().find("apc").orElseThrow();
        assertThat(apc.status().onPattern("3").matcher(" 3: Outlet 3: On").find()).isTrue();
        assertThat(apc.status().offPattern("3").orElseThrow().matcher(" 3: node-3: Off").find()).isTrue();
        assertThat(apc.status().onPattern("3").matcher(" 13: Outlet 13: On").find()).isFalse();
        assertThat(apc.confirmations().get(0).pattern()
                .matcher("Enter 'YES' to continue or <ENTER> to cancel : ").matches()).isTrue();

        DeviceProfile ios = ProfileCatalog.builtIn().find("cisco-ios").orElseThrow();
        assertThat(ios.prompt().matcher("remedy-sw1(config-if)#").matches()).isTrue();
        String line = "Gi1/0/5      node-5             disabled     10         auto   auto 10/100/1000BaseTX";
        assertThat(ios.status().offPattern("GigabitEthernet1/0/5").orElseThrow().matcher(line).find()).isTrue();
        assertThat(ios.status().onPattern("GigabitEthernet1/0/5").matcher(line).find()).isFalse();
        assertThat(ios.status().onPattern("x").matcher(line.replace("disabled", "err-disabled")).find()).isTrue();

        DeviceProfile brocade = ProfileCatalog.builtIn().find("brocade-fos").orElseThrow();
        String disabled = "portFlags: 0x4001       PRESENT U_PORT DISABLED LED";
        String enabled = "portFlags: 0x24b03       PRESENT ACTIVE F_PORT G_PORT U_PORT LOGICAL_ONLINE LOGIN";
        assertThat(brocade.status().onPattern("5").matcher(disabled).find()).isFalse();
        assertThat(brocade.status().offPattern("5").orElseThrow().matcher(disabled).find()).isTrue();
        assertThat(brocade.status().onPattern("5").matcher(enabled).find()).isTrue();
        assertThat(brocade.prompt().matcher("remedy-fc1:admin> ").matches()).isTrue();
        assertThat(brocade.prompt().matcher("sw1:FID128:admin> ").matches()).isTrue();
        assertThat(brocade.plug().orElseThrow().matcher("1/5").matches()).isTrue();
        assertThat(brocade.plug().orElseThrow().matcher("1/5/2").matches()).isFalse();
    }

    @Test
    @DisplayName("a user's file adds profiles and replaces a built-in of the same name; a bad file names its problems")
    void userFile() throws IOException {
        Path file = Files.writeString(dir.resolve("mine.yaml"), """
                profiles:
                  - name: apc
                    description: my APC with another prompt
                    kind: power
                    prompt: 'pdu> '
                    plug: '[0-9]+'
                    status: {command: 'olStatus {plug}', on: ': On', off: ': Off'}
                    on: ['olOn {plug}']
                    off: ['olOff {plug}']
                """);

        Catalog<DeviceProfile> catalog = ProfileCatalog.builtIn().with(file);

        assertThat(catalog.find("apc").orElseThrow().description()).isEqualTo("my APC with another prompt");
        assertThat(ProfileCatalog.builtIn().find("apc").orElseThrow().description()).contains("AOS");
        assertThatThrownBy(() -> ProfileCatalog.builtIn().with(dir.resolve("missing.yaml")))
                .isInstanceOf(ProfileException.class).hasMessageContaining("missing.yaml").hasMessageContaining("cannot read the file: no such file");
    }
}
