package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.spi.PowerState;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("OpenIPMI ipmi_sim as a child process, driven by ipmitool")
class IpmiSimProcessIT {

    @TempDir
    Path dir;

    @BeforeAll
    static void peersInstalled() {
        PeerPrograms.require("ipmi_sim", "openipmi");
        PeerPrograms.require("ipmitool", "ipmitool");
    }

    private static Peers.Result ipmitool(IpmiSimProcess sim, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "-C";
        all[1] = "3";
        System.arraycopy(args, 0, all, 2, args.length);
        return Peers.ipmitool(sim.host(), sim.port(), sim.user(), sim.password(), null, all);
    }

    private static String status(IpmiSimProcess sim) {
        Peers.Result result = ipmitool(sim, "chassis", "power", "status");
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.output().trim();
    }

    @Test
    @DisplayName("ipmitool's power status, off and on show in the power target, and the power target in ipmitool")
    void powerBothWays() {
        try (IpmiSimProcess sim = IpmiSimProcess.start(dir)) {
            assertThat(sim.host()).isEqualTo("127.0.0.1");
            assertThat(sim.user()).isEqualTo("admin");
            assertThat(sim.password()).isEqualTo("remedy-secret");
            assertThat(status(sim)).isEqualTo("Chassis Power is on");

            assertThat(ipmitool(sim, "chassis", "power", "off").exitCode()).isZero();
            assertThat(sim.powerTarget().power()).isEqualTo(PowerState.OFF);
            assertThat(status(sim)).isEqualTo("Chassis Power is off");

            sim.powerTarget().power(PowerState.ON);
            assertThat(status(sim)).isEqualTo("Chassis Power is on");
            sim.powerTarget().power(PowerState.OFF);
            assertThat(status(sim)).isEqualTo("Chassis Power is off");

            assertThat(ipmitool(sim, "chassis", "power", "on").exitCode()).isZero();
            assertThat(sim.powerTarget().power()).isEqualTo(PowerState.ON);
            assertThat(sim.powerTarget().history())
                    .containsExactly(PowerState.OFF, PowerState.ON, PowerState.OFF, PowerState.ON);
            assertThat(sim.chassisCalls()).contains("get power", "set power 0", "set power 1");
        }
    }

    @Test
    @DisplayName("a power cycle is OFF now and ON a second later; a hard reset calls the script and records nothing")
    void cycleAndReset() throws Exception {
        try (IpmiSimProcess sim = IpmiSimProcess.start(dir)) {
            assertThat(ipmitool(sim, "chassis", "power", "cycle").exitCode()).isZero();
            assertThat(sim.powerTarget().history()).containsExactly(PowerState.OFF);
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (sim.powerTarget().history().size() < 2 && System.nanoTime() - deadline < 0) {
                Thread.sleep(50);
            }
            assertThat(sim.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON);

            sim.powerTarget().clearHistory();
            assertThat(ipmitool(sim, "chassis", "power", "reset").exitCode()).isZero();
            assertThat(sim.powerTarget().history()).isEmpty();
            assertThat(sim.powerTarget().power()).isEqualTo(PowerState.ON);
            assertThat(sim.chassisCalls()).containsSubsequence("set power 0", "set power 1", "set reset 1");
        }
    }

    @Test
    @DisplayName("Debian's ipmi_sim refuses cipher suite 17 and a wrong password fails in RAKP 2 (peer quirks)")
    void peerQuirks() {
        try (IpmiSimProcess sim = IpmiSimProcess.start(dir, "operator1", "other-secret")) {
            Peers.Result suite17 = Peers.ipmitool(sim.host(), sim.port(), sim.user(), sim.password(), null, "-C", "17",
                    "-v", "chassis", "power", "status");
            assertThat(suite17.exitCode()).isNotZero();
            assertThat(suite17.output()).contains("invalid authentication algorithm");

            Peers.Result wrong = Peers.ipmitool(sim.host(), sim.port(), sim.user(), "not-the-secret", null, "-C", "3",
                    "-v", "chassis", "power", "status");
            assertThat(wrong.exitCode()).isNotZero();
            assertThat(wrong.output()).contains("RAKP 2 HMAC is invalid");
            assertThat(status(sim)).isEqualTo("Chassis Power is on");
        }
    }

    @Test
    @DisplayName("close stops ipmi_sim and frees its port; bad arguments are refused before anything starts")
    void closeAndRefusals() throws Exception {
        IpmiSimProcess sim = IpmiSimProcess.start(dir);
        int port = sim.port();
        sim.close();
        sim.close();

        assertThat(sim.alive()).isFalse();
        try (DatagramSocket again = new DatagramSocket(new InetSocketAddress("127.0.0.1", port))) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
        assertThat(sim.logFile()).exists();
        assertThatThrownBy(() -> IpmiSimProcess.start(dir.resolve("with space"))).hasMessageContaining("work directory");
        assertThatThrownBy(() -> IpmiSimProcess.start(dir, "admin", "quote\"d")).hasMessageContaining("quote");
        assertThatThrownBy(() -> IpmiSimProcess.start(dir, "admin", "a-password-longer-than-20"))
                .hasMessageContaining("at most 20");
        assertThat(List.of(sim.workDir().toFile().list())).contains("lan.conf", "sim.emu", "chassis-control.sh");
    }
}
