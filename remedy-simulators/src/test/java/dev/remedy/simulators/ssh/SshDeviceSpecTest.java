package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SshDeviceSpecTest {

    @Test
    void defaultsToAnEightOutletApcWithOneUser() {
        SshDeviceSpec spec = SshDeviceSpec.builder().build();
        assertThat(spec.device()).isEqualTo(DeviceKind.APC_PDU);
        assertThat(spec.users()).containsExactly(Map.entry("apc", "apc-secret"));
        assertThat(spec.ports()).isEqualTo(8);
        assertThat(spec.pageLength()).isZero();
        assertThat(spec.confirmations()).isFalse();
        assertThat(spec.hostKeyType()).isEqualTo(HostKeyType.ED25519);
        assertThat(spec.powerDelay()).isZero();
        assertThat(spec.rebootTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(spec.toString()).doesNotContain("apc-secret");
    }

    @Test
    void defaultsDependOnTheDevice() {
        SshDeviceSpec ios = SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).portNames(Map.of("3", "db-3"))
                .build();
        assertThat(ios.pageLength()).isEqualTo(24);
        assertThat(ios.portNames()).containsExactly(Map.entry("GigabitEthernet1/0/3", "db-3"));
        assertThat(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST).build().rebootTime())
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(SshDeviceSpec.builder().user("admin", "x").build().users()).containsOnlyKeys("admin");
        assertThat(ios.enableSecret()).isEmpty();
        SshDeviceSpec userExec = SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).enableSecret("en-secret").build();
        assertThat(userExec.enableSecret()).hasValue("en-secret");
        assertThat(userExec.toString()).contains("enable secret").doesNotContain("en-secret");
    }

    @Test
    void refusesSettingsThatDoNotFitTheDevice() {
        assertThatThrownBy(() -> SshDeviceSpec.builder().secondHostKey(HostKeyType.ED25519).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one key per type");
        assertThatThrownBy(() -> SshDeviceSpec.builder().legacyAlgorithms(true).secondHostKey(HostKeyType.ED25519)
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one host key");
        assertThatThrownBy(() -> SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS).confirmations(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("confirmations are an APC_PDU and "
                        + "CISCO_IOS feature");
        assertThatThrownBy(() -> SshDeviceSpec.builder().enableSecret("s3cret").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("enableSecret is a CISCO_IOS");
        assertThatThrownBy(() -> SshDeviceSpec.builder().enableSecret(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty");
        assertThatThrownBy(() -> SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS).pageLength(10).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BROCADE_FOS never pages");
        assertThatThrownBy(() -> SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST)
                .portNames(Map.of("1", "x")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no ports to name");
        assertThatThrownBy(() -> SshDeviceSpec.builder().ports(4).portNames(Map.of("5", "x")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no plug '5'");
        assertThatThrownBy(() -> SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS).ports(4)
                .portNames(Map.of("4", "x")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plugs are 0 to 3");
        assertThatThrownBy(() -> SshDeviceSpec.builder().portNames(Map.of("1", " padded")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("printable ASCII");
        assertThatThrownBy(() -> SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS)
                .portNames(Map.of("1", "a", "GigabitEthernet1/0/1", "b")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("named twice");
    }

    @Test
    void refusesBadValues() {
        assertThatThrownBy(() -> SshDeviceSpec.builder().ports(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ports 0 must be 1 to 256");
        assertThatThrownBy(() -> SshDeviceSpec.builder().pageLength(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> SshDeviceSpec.builder().user("a", "x").user("a", "y"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("added twice");
        assertThatThrownBy(() -> SshDeviceSpec.builder().user("a b", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without blanks");
        assertThatThrownBy(() -> SshDeviceSpec.builder().user("a", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty password");
        assertThatThrownBy(() -> SshDeviceSpec.builder().powerDelay(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("powerDelay");
        assertThatThrownBy(() -> SshDeviceSpec.builder().rebootTime(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rebootTime");
    }
}
