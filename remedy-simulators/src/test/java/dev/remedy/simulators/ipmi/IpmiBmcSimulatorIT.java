package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.spi.PowerState;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real clients nobody on the team wrote ({@code ipmitool}, freeipmi's {@code ipmipower}) against the simulator. */
@DisplayName("ipmitool and ipmipower against the BMC simulator")
class IpmiBmcSimulatorIT {

    private static final String PASSWORD = "remedy-secret";
    private static IpmiBmcSimulator simulator;

    @TempDir
    Path dir;

    private SimulatedBmc bmc;

    @BeforeAll
    static void start() {
        PeerPrograms.require("ipmitool", "ipmitool");
        simulator = IpmiBmcSimulator.start();
    }

    @AfterAll
    static void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }

    @AfterEach
    void everySessionClosed() {
        if (bmc != null) {
            assertThat(bmc.activeSessions()).as("sessions left open on %s", bmc).isZero();
        }
    }

    private SimulatedBmc add(BmcSpec spec) {
        bmc = simulator.add(spec);
        return bmc;
    }

    private static Peers.Result ipmitool(SimulatedBmc bmc, String user, String password, String... args) {
        Peers.Result result = Peers.ipmitool(bmc.host(), bmc.port(), user, password, null, args);
        assertThat(bmc.activeSessions()).as("sessions open after ipmitool %s", String.join(" ", args)).isZero();
        return result;
    }

    private static String ok(SimulatedBmc bmc, String... args) {
        Peers.Result result = ipmitool(bmc, "admin", PASSWORD, args);
        assertThat(result.exitCode()).as("ipmitool %s: %s", String.join(" ", args), result.output()).isZero();
        return result.output().trim();
    }

    @Test
    @DisplayName("cipher suite 3: power status, off and on")
    void suite3() {
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());

        assertThat(ok(bmc, "-C", "3", "chassis", "power", "status")).isEqualTo("Chassis Power is on");
        assertThat(ok(bmc, "-C", "3", "chassis", "power", "off")).isEqualTo("Chassis Power Control: Down/Off");
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(ok(bmc, "-C", "3", "chassis", "power", "status")).isEqualTo("Chassis Power is off");
        assertThat(ok(bmc, "-C", "3", "chassis", "power", "on")).isEqualTo("Chassis Power Control: Up/On");

        assertThat(bmc.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(bmc.sessionsOpened()).isEqualTo(4);
    }

    @Test
    @DisplayName("cipher suite 17 (SHA-256): power status and off")
    void suite17() {
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());

        assertThat(ok(bmc, "-C", "17", "chassis", "power", "status")).isEqualTo("Chassis Power is on");
        assertThat(ok(bmc, "-C", "17", "chassis", "power", "off")).isEqualTo("Chassis Power Control: Down/Off");
        assertThat(ok(bmc, "-C", "17", "chassis", "power", "status")).isEqualTo("Chassis Power is off");
        assertThat(bmc.powerTarget().history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("without -C ipmitool reads Get Channel Cipher Suites and picks suite 17")
    void negotiatedSuite() {
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());

        String output = ok(bmc, "-vv", "chassis", "power", "status");

        assertThat(output).contains("Using best available cipher suite 17").contains("Chassis Power is on")
                .doesNotContain("Unable to Get Channel Cipher Suites");
    }

    @Test
    @DisplayName("mc info shows the simulated controller (Get Device ID)")
    void mcInfo() {
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());

        assertThat(ok(bmc, "-C", "3", "mc", "info")).contains("IPMI Version              : 2.0")
                .contains("Device Available          : yes");
    }

    @Test
    @DisplayName("a wrong password fails in RAKP 2 and leaves no session; an unknown user is named as such")
    void wrongCredentials() {
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());

        Peers.Result wrong = ipmitool(bmc, "admin", "not-the-secret", "-C", "3", "-v", "chassis", "power", "off");
        Peers.Result unknown = ipmitool(bmc, "nobody", PASSWORD, "-C", "17", "-v", "chassis", "power", "off");

        assertThat(wrong.exitCode()).isNotZero();
        assertThat(wrong.output()).contains("RAKP 2 HMAC is invalid");
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.output()).contains("unauthorized name");
        assertThat(bmc.powerTarget().history()).isEmpty();
        assertThat(bmc.sessionsOpened()).isZero();
    }

    @Test
    @DisplayName("a USER account reads power but may not change it: ipmitool reports insufficient privilege")
    void userPrivilege() {
        SimulatedBmc bmc = add(BmcSpec.builder().user("viewer", "viewer-pass", Privilege.USER).build());

        Peers.Result asAdmin = ipmitool(bmc, "viewer", "viewer-pass", "-C", "3", "-v", "chassis", "power", "status");
        Peers.Result read = ipmitool(bmc, "viewer", "viewer-pass", "-C", "3", "-L", "USER", "chassis", "power", "status");
        Peers.Result off = ipmitool(bmc, "viewer", "viewer-pass", "-C", "3", "-L", "USER", "chassis", "power", "off");

        assertThat(asAdmin.output()).contains("invalid role");
        assertThat(read.output().trim()).isEqualTo("Chassis Power is on");
        assertThat(off.exitCode()).isNotZero();
        assertThat(off.output()).contains("Insufficient privilege level");
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("with a BMC key set, ipmitool needs the same Kg (given through IPMI_KGKEY)")
    void bmcKey() {
        SimulatedBmc bmc = add(BmcSpec.builder().user("admin", PASSWORD).bmcKey("kg-secret".getBytes()).build());

        Peers.Result withKey = Peers.ipmitool(bmc.host(), bmc.port(), "admin", PASSWORD, "kg-secret", "-K", "-C", "17",
                "chassis", "power", "status");
        Peers.Result without = Peers.ipmitool(bmc.host(), bmc.port(), "admin", PASSWORD, null, "-C", "17", "-v",
                "chassis", "power", "status");

        assertThat(withKey.output().trim()).isEqualTo("Chassis Power is on");
        assertThat(without.exitCode()).isNotZero();
        assertThat(without.output()).contains("RAKP 4 message has invalid integrity check value");
        assertThat(bmc.activeSessions())
                .as("RAKP 3 proved the password, so the BMC opened the session; ipmitool only then finds Kg wrong "
                        + "and leaves without closing it, as it would on a real BMC: the idle timeout ends it")
                .isEqualTo(1);
        this.bmc = null;
    }

    @Test
    @DisplayName("ipmitool retransmits through dropped datagrams; an unresponsive BMC makes it fail")
    void dropsAndSilence() {
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());
        assertThat(ok(bmc, "-C", "3", "chassis", "power", "status")).isEqualTo("Chassis Power is on");
        long exchange = bmc.requests();

        bmc.dropNext(1);
        assertThat(ok(bmc, "-C", "3", "chassis", "power", "status")).isEqualTo("Chassis Power is on");
        assertThat(bmc.requests()).as("the same exchange plus one retransmission").isEqualTo(2 * exchange + 1);

        long before = bmc.requests();
        bmc.responsive(false);
        Peers.Result silent = ipmitool(bmc, "admin", PASSWORD, "-C", "3", "chassis", "power", "status");
        assertThat(silent.exitCode()).isNotZero();
        assertThat(bmc.requests()).as("ipmitool tried more than once").isGreaterThan(before + 1);
    }

    @Test
    @DisplayName("freeipmi's ipmipower powers the simulated machine off and on (suites 3 and 17)")
    void ipmipower() {
        PeerPrograms.require("ipmipower", "freeipmi-tools");
        SimulatedBmc bmc = add(BmcSpec.ofDefaults());

        Peers.Result status = Peers.ipmipower(dir, bmc.host(), bmc.port(), "admin", PASSWORD, "-I", "3", "--stat");
        Peers.Result off = Peers.ipmipower(dir, bmc.host(), bmc.port(), "admin", PASSWORD, "-I", "17", "--off");
        Peers.Result on = Peers.ipmipower(dir, bmc.host(), bmc.port(), "admin", PASSWORD, "--on");

        assertThat(status.output().trim()).isEqualTo("127.0.0.1: on");
        assertThat(off.output().trim()).isEqualTo("127.0.0.1: ok");
        assertThat(on.output().trim()).isEqualTo("127.0.0.1: ok");
        assertThat(bmc.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(bmc.activeSessions()).isZero();
    }
}
