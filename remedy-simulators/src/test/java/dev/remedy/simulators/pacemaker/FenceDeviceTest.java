package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A fence device as stonith_admin registers it")
class FenceDeviceTest {

    private static final FenceDevice IPMI = FenceDevice.of("ipmi-1", "fence_ipmilan")
            .withOptions(Map.of("ip", "127.0.0.1", "ipport", "6230"))
            .withOption("pcmk_host_list", "node1")
            .withSecret("password", "s3cret value");

    @Test
    @DisplayName("options go on stonith_admin's command line sorted by name, secrets only by name")
    void registerArguments() {
        assertThat(IPMI.registerArguments()).containsExactly("--register", "ipmi-1", "--agent", "fence_ipmilan",
                "--option", "ip=127.0.0.1", "--option", "ipport=6230", "--option", "pcmk_host_list=node1",
                "--env-option", "password");
        assertThat(String.join(" ", IPMI.registerArguments())).doesNotContain("s3cret");
    }

    @Test
    @DisplayName("a secret's value reaches stonith_admin as OCF_RESKEY_<name> in its environment")
    void secretsInTheEnvironment() {
        assertThat(IPMI.registerEnvironment()).containsExactly(Map.entry("OCF_RESKEY_password", "s3cret value"));
        assertThat(FenceDevice.of("d", "fence_x").withOption("a", "b").registerEnvironment()).isEmpty();
    }

    @Test
    @DisplayName("toString masks secrets")
    void masked() {
        assertThat(IPMI.toString()).contains("ipmi-1", "fence_ipmilan", "ipport=6230", "password=****")
                .doesNotContain("s3cret");
    }

    @Test
    @DisplayName("a later value of an option replaces the earlier one")
    void replaces() {
        assertThat(IPMI.withOption("ipport", "7000").options()).containsEntry("ipport", "7000").hasSize(3);
    }

    @Test
    @DisplayName("ids, agents and option names that stonith_admin or the agent would misread are refused, by name")
    void refusesBadNames() {
        assertThatThrownBy(() -> FenceDevice.of("bad id", "fence_x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bad id'");
        assertThatThrownBy(() -> FenceDevice.of("d", "/usr/sbin/fence_x"))
                .hasMessageContaining("'/usr/sbin/fence_x'").hasMessageContaining("fence_ipmilan");
        assertThatThrownBy(() -> FenceDevice.of("d", "ipmitool")).hasMessageContaining("'ipmitool'");
        assertThatThrownBy(() -> FenceDevice.of("d", "fence_x").withOption("ip port", "1"))
                .hasMessageContaining("option name 'ip port' of fence device d");
        assertThatThrownBy(() -> FenceDevice.of("d", "fence_x").withOption("a", "1\naction=on"))
                .hasMessageContaining("option a of fence device d").hasMessageContaining("line breaks");
    }

    @Test
    @DisplayName("a bad secret is refused without its value in the message")
    void refusesBadSecretQuietly() {
        assertThatThrownBy(() -> FenceDevice.of("d", "fence_x").withSecret("password", "top\nsecret"))
                .hasMessageContaining("secret password of fence device d").hasMessageNotContaining("top");
    }

    @Test
    @DisplayName("a name both an option and a secret is refused")
    void refusesBoth() {
        assertThatThrownBy(() -> FenceDevice.of("d", "fence_x").withOption("password", "a")
                .withSecret("password", "b")).hasMessageContaining("'password' both as an option and as a secret");
    }
}
