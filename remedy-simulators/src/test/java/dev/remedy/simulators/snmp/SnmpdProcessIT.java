package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.spi.PowerState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's snmpd in front of the emulated APC rack PDU, witnessed with net-snmp's own snmpget and snmpset: what a
 * SET does is what the state file and a GET read back, over v2c and over v3 with SHA-256 and AES.
 */
class SnmpdProcessIT {

    private static final String RPDU_COMMAND = ".1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.";
    private static final String RPDU_STATE = ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.";
    private static final String RPDU2_COMMAND = ".1.3.6.1.4.1.318.1.1.26.9.2.4.1.5.";
    private static final String RPDU2_STATE = ".1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.";

    @TempDir
    static Path work;

    private static SnmpdProcess snmpd;

    @BeforeAll
    static void start() {
        snmpd = SnmpdProcess.start(work.resolve("pdu"), SnmpDeviceSpec.of("pdu-a", SnmpDeviceKind.APC_RACK_PDU, 4));
    }

    @AfterAll
    static void stop() {
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @BeforeEach
    void allOn() {
        for (int n = 1; n <= 4; n++) {
            snmpd.outlet(n).power(PowerState.ON);
            snmpd.outlet(n).clearHistory();
        }
    }

    private static PeerCommand.Result run(PeerCommand command) throws InterruptedException {
        return command.run();
    }

    @Test
    @DisplayName("v2c: snmpset immediateOff turns exactly that outlet off; snmpget and the state file read it back")
    void v2cSetReadsBack() throws InterruptedException {
        PeerCommand.Result set = run(snmpd.tool("snmpset", snmpd.v2c(), RPDU_COMMAND + 2, "i", "2"));
        assertThat(set.exitCode()).as(set.output()).isZero();
        assertThat(snmpd.outlet(2).power()).isEqualTo(PowerState.OFF);
        assertThat(List.of(1, 3, 4)).allSatisfy(n -> assertThat(snmpd.outlet(n).power()).isEqualTo(PowerState.ON));
        PeerCommand.Result get = run(snmpd.tool("snmpget", snmpd.v2c(), RPDU_STATE + 2, RPDU2_STATE + 2,
                RPDU_STATE + 1));
        assertThat(get.output().lines()).containsExactly(RPDU_STATE + "2 = INTEGER: 2", RPDU2_STATE + "2 = INTEGER: 1",
                RPDU_STATE + "1 = INTEGER: 1");
    }

    @Test
    @DisplayName("v3 authPriv SHA-256 + AES-128: a set through the rPDU2 table changes the outlet and reads back")
    void v3Sha256AesSetReadsBack() throws InterruptedException {
        snmpd.outlet(3).power(PowerState.OFF);
        List<String> v3 = SnmpdProcess.SHA256_AES.clientArguments();
        PeerCommand.Result set = run(snmpd.tool("snmpset", v3, RPDU2_COMMAND + 3, "i", "1"));
        assertThat(set.exitCode()).as(set.output()).isZero();
        assertThat(snmpd.outlet(3).power()).isEqualTo(PowerState.ON);
        assertThat(run(snmpd.tool("snmpget", v3, RPDU2_STATE + 3)).output()).isEqualTo(RPDU2_STATE + "3 = INTEGER: 2");
        assertThat(snmpd.outlet(3).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("the other v3 users (SHA-256 + AES-256 where net-snmp has it, SHA-1 + AES-128, authNoPriv SHA-256) switch and read outlets")
    void otherUsers() throws InterruptedException {
        assertThat(snmpd.users()).contains(SnmpdProcess.SHA_AES, SnmpdProcess.SHA256_AUTH_ONLY);
        assertThat(snmpd.users().contains(SnmpdProcess.SHA256_AES256)).as("AES-256 user exactly when net-snmp has it")
                .isEqualTo(SnmpdProcess.aes256Supported());
        int outlet = 1;
        for (SnmpUser user : snmpd.users().stream().filter(u -> !u.equals(SnmpdProcess.SHA256_AES)).toList()) {
            PeerCommand.Result off = run(snmpd.tool("snmpset", user.clientArguments(), RPDU_COMMAND + outlet, "i", "2"));
            assertThat(off.exitCode()).as("%s: %s", user, off.output()).isZero();
            assertThat(run(snmpd.tool("snmpget", user.clientArguments(), RPDU_STATE + outlet)).output())
                    .as("%s", user).isEqualTo(RPDU_STATE + outlet + " = INTEGER: 2");
            assertThat(snmpd.outlet(outlet).power()).as("%s", user).isEqualTo(PowerState.OFF);
            outlet++;
        }
    }

    @Test
    @DisplayName("a wrong v3 passphrase is an authentication failure and switches nothing")
    void wrongPassphrase() throws InterruptedException {
        SnmpUser wrong = SnmpUser.authPriv(SnmpdProcess.SHA256_AES.name(), SnmpUser.Auth.SHA_256, "not-the-passphrase",
                SnmpUser.Priv.AES, SnmpdProcess.SHA256_AES.privPassphrase());
        PeerCommand.Result set = run(snmpd.tool("snmpset", wrong.clientArguments(), RPDU_COMMAND + 1, "i", "2"));
        assertThat(set.exitCode()).isNotZero();
        assertThat(set.output()).containsIgnoringCase("authentication failure");
        assertThat(snmpd.outlet(1).history()).isEmpty();
    }

    @Test
    @DisplayName("snmpd answers wrongValue for a value the MIB does not define and notWritable for a status column")
    void refusedSets() throws InterruptedException {
        PeerCommand.Result wrongValue = run(snmpd.tool("snmpset", snmpd.v2c(), RPDU_COMMAND + 1, "i", "9"));
        assertThat(wrongValue.exitCode()).isNotZero();
        assertThat(wrongValue.output()).contains("wrongValue");
        PeerCommand.Result notWritable = run(snmpd.tool("snmpset", snmpd.v2c(), RPDU_STATE + 1, "i", "2"));
        assertThat(notWritable.output()).contains("notWritable");
        assertThat(snmpd.outlet(1).history()).isEmpty();
        assertThat(snmpd.passPersistLog()).content().contains("does not allow 9").contains("is read-only");
    }

    @Test
    @DisplayName("the device's reboot turns the outlet off at once and on again after its delay, read by snmpget")
    void deviceReboot() throws InterruptedException {
        assertThat(run(snmpd.tool("snmpset", snmpd.v2c(), RPDU_COMMAND + 4, "i", "3")).exitCode()).isZero();
        assertThat(snmpd.outlet(4).power()).isEqualTo(PowerState.OFF);
        long deadline = System.nanoTime() + SnmpDeviceSpec.DEFAULT_REBOOT_DELAY.plusSeconds(5).toNanos();
        String status = "";
        while (System.nanoTime() - deadline < 0 && !status.endsWith("INTEGER: 1")) {
            Thread.sleep(200);
            status = run(snmpd.tool("snmpget", snmpd.v2c(), RPDU_STATE + 4)).output();
        }
        assertThat(status).isEqualTo(RPDU_STATE + "4 = INTEGER: 1");
        assertThat(snmpd.outlet(4).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("sysObjectID and sysName come from snmpd's own system group, configured for the device")
    void systemGroup() throws InterruptedException {
        assertThat(run(snmpd.tool("snmpget", snmpd.v2c(), ".1.3.6.1.2.1.1.2.0", ".1.3.6.1.2.1.1.5.0")).output().lines())
                .containsExactly(".1.3.6.1.2.1.1.2.0 = OID: .1.3.6.1.4.1.318.1.3.4.5",
                        ".1.3.6.1.2.1.1.5.0 = STRING: \"pdu-a\"");
        assertThat(snmpd.workDir().resolve("persist").resolve("snmpd.conf"))
                .as("snmpd keeps its persistent files (engine boots) in the work directory").exists();
    }

    @Test
    @DisplayName("an IF-MIB switch: ifAdminStatus down by v3 takes the port down, ifName names it; close leaves no process behind")
    void switchPortsAndCleanStop(@TempDir Path dir) throws InterruptedException {
        SnmpdProcess sw = SnmpdProcess.start(dir, SnmpDeviceSpec.of("sw-1", SnmpDeviceKind.IF_MIB_SWITCH, 3));
        List<ProcessHandle> started;
        try {
            List<String> v3 = SnmpdProcess.SHA256_AES.clientArguments();
            assertThat(run(sw.tool("snmpwalk", v3, ".1.3.6.1.2.1.31.1.1.1.1")).output().lines()).containsExactly(
                    ".1.3.6.1.2.1.31.1.1.1.1.10101 = STRING: \"Gi1/0/1\"",
                    ".1.3.6.1.2.1.31.1.1.1.1.10102 = STRING: \"Gi1/0/2\"",
                    ".1.3.6.1.2.1.31.1.1.1.1.10103 = STRING: \"Gi1/0/3\"");
            assertThat(run(sw.tool("snmpset", v3, ".1.3.6.1.2.1.2.2.1.7.10102", "i", "2")).exitCode()).isZero();
            assertThat(run(sw.tool("snmpget", v3, ".1.3.6.1.2.1.2.2.1.8.10102")).output())
                    .isEqualTo(".1.3.6.1.2.1.2.2.1.8.10102 = INTEGER: 2");
            assertThat(sw.outlet(2).power()).isEqualTo(PowerState.OFF);
            assertThat(sw.outlet(1).power()).isEqualTo(PowerState.ON);
            started = ProcessHandle.of(sw.pid()).orElseThrow().descendants().toList();
            assertThat(started).as("the pass_persist JVMs").isNotEmpty();
        } finally {
            sw.close();
        }
        assertThat(sw.alive()).isFalse();
        assertThat(started).noneMatch(ProcessHandle::isAlive);
        assertThat(Files.exists(dir.resolve("snmpd.log"))).isTrue();
    }
}
