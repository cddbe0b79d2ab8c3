package dev.remedy.fence.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpUser;
import dev.remedy.simulators.snmp.SnmpdProcess;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents against Debian's snmpd, with the emulated devices of remedy-simulators behind it through pass_persist:
 * v2c and v3 (SHA-256 with AES-128, and AES-256 where net-snmp has it), several plugs, every outlet witnessed on its
 * own with net-snmp's snmpget and through the device's state file.
 */
class SnmpdIT {

    private static final String RPDU2_STATE = ".1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.";
    private static final String IF_ADMIN_STATUS = ".1.3.6.1.2.1.2.2.1.7.";
    private static final int OUTLETS = 6;

    @TempDir
    static Path work;

    private static SnmpdProcess pdu;
    private static SnmpdProcess sw;

    @BeforeAll
    static void start() {
        pdu = SnmpdProcess.start(work.resolve("pdu"), SnmpDeviceSpec.of("pdu-it", SnmpDeviceKind.APC_RACK_PDU,
                OUTLETS));
        sw = SnmpdProcess.start(work.resolve("switch"), SnmpDeviceSpec.of("switch-it", SnmpDeviceKind.IF_MIB_SWITCH,
                8));
    }

    @AfterAll
    static void stop() {
        for (SnmpdProcess process : new SnmpdProcess[] {pdu, sw}) {
            if (process != null) {
                process.close();
            }
        }
    }

    @BeforeEach
    void allOn() {
        for (int n = 1; n <= OUTLETS; n++) {
            pdu.outlet(n).power(PowerState.ON);
            pdu.outlet(n).clearHistory();
        }
        for (int n = 1; n <= 8; n++) {
            sw.outlet(n).power(PowerState.ON);
            sw.outlet(n).clearHistory();
        }
    }

    private static AgentConfig.Builder config(FenceAgentProvider provider, SnmpdProcess snmpd, String profile,
            String plug) {
        return provider.configure().set("ip", snmpd.host()).set("ipport", Integer.toString(snmpd.port()))
                .set("profile", profile).set("plug", plug).set("poll_interval", "100ms");
    }

    private static AgentConfig.Builder v2c(FenceAgentProvider provider, SnmpdProcess snmpd, String profile,
            String plug) {
        return config(provider, snmpd, profile, plug).secret("community", Secret.of(snmpd.community()));
    }

    private static AgentConfig.Builder v3(SnmpUser user, String priv, String plug) {
        AgentConfig.Builder builder = config(new SnmpFenceAgentProvider(), pdu, "apc", plug).set("snmp_version", "3")
                .set("username", user.name()).set("snmp_auth_prot", "SHA-256")
                .secret("password", Secret.of(user.authPassphrase()));
        return builder.set("snmp_priv_prot", priv).secret("snmp_priv_passwd", Secret.of(user.privPassphrase()));
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action) throws InterruptedException {
        FenceAgentProvider provider = config.agentType().equals(SnmpFenceAgentProvider.TYPE)
                ? new SnmpFenceAgentProvider() : new SnmpFabricAgentProvider();
        try (var agent = provider.create(config)) {
            return agent.execute(new FenceRequest(action, "it"), FenceContext.start(TimeSource.system(),
                    Duration.ofSeconds(30)));
        }
    }

    /** snmpget's reading of one object, by net-snmp's own client: {@code .1.3...N = INTEGER: v}. */
    private static String witness(SnmpdProcess snmpd, List<String> security, String oid) throws InterruptedException {
        PeerCommand.Result get = snmpd.tool("snmpget", security, oid).run();
        assertThat(get.exitCode()).as(get.output()).isZero();
        return get.output().strip();
    }

    @Test
    @DisplayName("v2c, plugs 2 and 5: OFF switches exactly those two, each witnessed off by snmpget; ON brings both "
            + "back")
    void v2cSeveralPlugs() throws InterruptedException {
        AgentConfig config = v2c(new SnmpFenceAgentProvider(), pdu, "apc", "2,5").build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("profile apc-rpdu2", "plug 2 OFF, plug 5 OFF");
        for (int n = 1; n <= OUTLETS; n++) {
            boolean fenced = n == 2 || n == 5;
            assertThat(witness(pdu, pdu.v2c(), RPDU2_STATE + n)).as("outlet %d by snmpget", n)
                    .isEqualTo(RPDU2_STATE + n + " = INTEGER: " + (fenced ? 1 : 2));
            assertThat(pdu.outlet(n).power()).as("outlet %d in the state file", n)
                    .isEqualTo(fenced ? PowerState.OFF : PowerState.ON);
        }
        FenceOutcome status = run(config, FenceAction.STATUS);
        assertThat(status.power()).isEqualTo(PowerState.OFF);

        FenceOutcome on = run(config, FenceAction.ON);

        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(witness(pdu, pdu.v2c(), RPDU2_STATE + 2)).endsWith("INTEGER: 2");
        assertThat(witness(pdu, pdu.v2c(), RPDU2_STATE + 5)).endsWith("INTEGER: 2");
        assertThat(pdu.outlet(2).history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(pdu.outlet(5).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("v2c: OFF of plugs 1 and 3 while plug 3 is already off switches only plug 1 and confirms both")
    void v2cOneAlreadyOff() throws InterruptedException {
        pdu.outlet(3).power(PowerState.OFF);
        pdu.outlet(3).clearHistory();

        FenceOutcome off = run(v2c(new SnmpFenceAgentProvider(), pdu, "apc-rpdu2", "1,3").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("1 switched");
        assertThat(witness(pdu, pdu.v2c(), RPDU2_STATE + 1)).endsWith("INTEGER: 1");
        assertThat(witness(pdu, pdu.v2c(), RPDU2_STATE + 3)).endsWith("INTEGER: 1");
        assertThat(pdu.outlet(3).history()).isEmpty();
    }

    @Test
    @DisplayName("v3 authPriv SHA-256 + AES-128, engine ID discovered: plugs 1 and 4 OFF, witnessed by snmpget over v3")
    void v3Sha256Aes128() throws InterruptedException {
        SnmpUser user = SnmpdProcess.SHA256_AES;

        FenceOutcome off = run(v3(user, "AES", "1,4").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(witness(pdu, user.clientArguments(), RPDU2_STATE + 1)).endsWith("INTEGER: 1");
        assertThat(witness(pdu, user.clientArguments(), RPDU2_STATE + 4)).endsWith("INTEGER: 1");
        assertThat(witness(pdu, user.clientArguments(), RPDU2_STATE + 2)).endsWith("INTEGER: 2");
        assertThat(pdu.outlet(1).power()).isEqualTo(PowerState.OFF);
        assertThat(pdu.outlet(4).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("v3 authPriv SHA-256 + AES-256 (net-snmp's key extension): plugs 3 and 6 OFF, witnessed over v3")
    void v3Sha256Aes256() throws InterruptedException {
        assumeThat(SnmpdProcess.aes256Supported()).as("this net-snmp offers AES-256").isTrue();
        SnmpUser user = SnmpdProcess.SHA256_AES256;

        FenceOutcome off = run(v3(user, "AES-256", "3,6").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(witness(pdu, user.clientArguments(), RPDU2_STATE + 3)).endsWith("INTEGER: 1");
        assertThat(witness(pdu, user.clientArguments(), RPDU2_STATE + 6)).endsWith("INTEGER: 1");
        assertThat(pdu.outlet(5).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("v3 with a wrong authentication passphrase fails and switches nothing")
    void v3WrongPassphrase() throws InterruptedException {
        SnmpUser user = SnmpdProcess.SHA256_AES;

        FenceOutcome off = run(v3(user, "AES", "2").secret("password", Secret.of("not-the-passphrase"))
                .set("snmp_timeout", "500ms").set("snmp_retries", "1").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isIn(FenceStatus.FAILED, FenceStatus.TIMED_OUT);
        assertThat(off.toString()).doesNotContain("not-the-passphrase", user.privPassphrase());
        assertThat(pdu.outlet(2).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("snmp-fabric: ports by ifName and ifDescr set down and up, witnessed by ifAdminStatus over snmpget")
    void fabricPortsByName() throws InterruptedException {
        AgentConfig config = v2c(new SnmpFabricAgentProvider(), sw, "if-mib", "Gi1/0/2,GigabitEthernet1/0/7").build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(witness(sw, sw.v2c(), IF_ADMIN_STATUS + 10102)).endsWith("INTEGER: 2");
        assertThat(witness(sw, sw.v2c(), IF_ADMIN_STATUS + 10107)).endsWith("INTEGER: 2");
        assertThat(witness(sw, sw.v2c(), IF_ADMIN_STATUS + 10103)).endsWith("INTEGER: 1");

        FenceOutcome on = run(config, FenceAction.ON);

        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(witness(sw, sw.v2c(), IF_ADMIN_STATUS + 10102)).endsWith("INTEGER: 1");
        assertThat(sw.outlet(7).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }
}
