package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SimulatedDeviceTest {

    private static SimulatedDevice device(DeviceKind kind, int ports) {
        return new SimulatedDevice(SshDeviceSpec.builder().device(kind).ports(ports).build(), () -> { });
    }

    @Test
    void namesPlugsAsEachDeviceDoes() {
        assertThat(device(DeviceKind.APC_PDU, 3).plugs()).containsExactly("1", "2", "3");
        assertThat(device(DeviceKind.CISCO_IOS, 2).plugs())
                .containsExactly("GigabitEthernet1/0/1", "GigabitEthernet1/0/2");
        assertThat(device(DeviceKind.BROCADE_FOS, 3).plugs()).containsExactly("0", "1", "2");
        assertThat(device(DeviceKind.LINUX_HOST, 3).plugs()).isEmpty();
        assertThat(device(DeviceKind.APC_PDU, 3).port("2").power()).isEqualTo(PowerState.ON);
        assertThatThrownBy(() -> device(DeviceKind.APC_PDU, 3).port("4"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plugs are 1 to 3");
        assertThatThrownBy(() -> device(DeviceKind.LINUX_HOST, 3).port("1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no plugs");
    }

    @Test
    void keepsLinuxStateForLinuxHostsOnly() {
        AtomicInteger drops = new AtomicInteger();
        SimulatedDevice host = new SimulatedDevice(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST).build(),
                drops::incrementAndGet);
        host.kubeletState("failed");
        host.reboot();
        assertThat(host.reboots()).isEqualTo(1);
        assertThat(drops).hasValue(1);
        assertThat(host.kubeletState()).isEqualTo("active");
        assertThatThrownBy(() -> host.kubeletState("running")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be one of");
        assertThatThrownBy(() -> device(DeviceKind.APC_PDU, 1).reboots()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("belongs to a LINUX_HOST");
        assertThatThrownBy(() -> device(DeviceKind.APC_PDU, 1).link("1", false))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void commandLogKeepsTheLatestLines() {
        CommandLog log = new CommandLog(2);
        log.add("a");
        log.add("b");
        log.add("c");
        assertThat(log.entries()).containsExactly("b", "c");
    }
}
