package dev.remedy.fence.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpAgentSimulator.Access;
import dev.remedy.simulators.snmp.SnmpAgentSimulator.User;
import dev.remedy.simulators.snmp.SnmpDevice;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpValue;
import dev.remedy.simulators.snmp.VarBind;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The agents against emulated devices behind the in-JVM SNMP agent. */
class SnmpFenceAgentTest {

    private static final String COMMUNITY = "agent-test-community";
    private static final String RPDU2_STATUS = "1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.";
    private static final String RPDU2_CONTROL = ".1.3.6.1.4.1.318.1.1.26.9.2.4.1.5.";

    private final List<SnmpAgentSimulator> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(SnmpAgentSimulator::close);
    }

    private SnmpAgentSimulator device(SnmpDeviceKind kind, Access access) {
        return device(SnmpDeviceSpec.of(kind.name().toLowerCase().replace('_', '-'), kind, 8), access);
    }

    private SnmpAgentSimulator device(SnmpDeviceSpec spec, Access access) {
        SnmpAgentSimulator agent = SnmpAgentSimulator.start(SnmpDevice.create(spec, Clock.systemUTC()), access);
        started.add(agent);
        return agent;
    }

    private static AgentConfig.Builder v2c(FenceAgentProvider provider, SnmpAgentSimulator agent, String profile,
            String plug) {
        return provider.configure().set("ip", agent.host()).set("ipport", Integer.toString(agent.port()))
                .secret("community", Secret.of(COMMUNITY)).set("profile", profile).set("plug", plug)
                .set("poll_interval", "20ms").set("power_timeout", "2s").set("snmp_timeout", "300ms")
                .set("snmp_retries", "1");
    }

    private static AgentConfig.Builder pdu(SnmpAgentSimulator agent, String profile, String plug) {
        return v2c(new SnmpFenceAgentProvider(), agent, profile, plug).set("reboot_off_time", "50ms");
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action) throws InterruptedException {
        FenceAgentProvider provider = config.agentType().equals("snmp") ? new SnmpFenceAgentProvider()
                : new SnmpFabricAgentProvider();
        try (var agent = provider.create(config)) {
            return agent.execute(new FenceRequest(action, "test"), FenceContext.start(TimeSource.system(),
                    Duration.ofSeconds(20)));
        }
    }

    @Test
    @DisplayName("OFF of two outlets sets and reads back each on its own, in order, and confirms both OFF")
    void twoPlugsOff() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));

        FenceOutcome off = run(pdu(pdu, "apc-rpdu2", "3,4").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(off.plugs()).extracting(Plug::id, Plug::power).containsExactly(
                org.assertj.core.groups.Tuple.tuple("3", PowerState.OFF), org.assertj.core.groups.Tuple.tuple("4",
                        PowerState.OFF));
        assertThat(pdu.sets()).extracting(set -> set.oid().toString(), set -> set.value().intValue())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(RPDU2_CONTROL + "3", 2),
                        org.assertj.core.groups.Tuple.tuple(RPDU2_CONTROL + "4", 2));
        assertThat(pdu.device().outlet(3).power()).isEqualTo(PowerState.OFF);
        assertThat(pdu.device().outlet(4).power()).isEqualTo(PowerState.OFF);
        assertThat(pdu.device().outlets()).filteredOn(o -> o.number() != 3 && o.number() != 4)
                .allSatisfy(o -> assertThat(o.power()).isEqualTo(PowerState.ON));
        assertThat(off.detail()).contains("plug 3 OFF, plug 4 OFF", "2 switched");
    }

    @Test
    @DisplayName("OFF fails, naming the outlet, when the second outlet still reads on: never a success on one of two")
    void secondOutletStaysOn() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));
        pdu.answer(RPDU2_STATUS + "4", SnmpValue.integer(2));

        FenceOutcome off = run(pdu(pdu, "apc-rpdu2", "3,4").set("power_timeout", "300ms").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("plug 4 reads ON, not OFF after power_timeout (300 ms)");
        assertThat(pdu.sets()).hasSize(2);
    }

    @Test
    @DisplayName("a failure under profile apc names the table the device answered, as a success does")
    void failureNamesTheSettledTable() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));
        pdu.answer(RPDU2_STATUS + "4", SnmpValue.integer(2));

        FenceOutcome off = run(pdu(pdu, "apc", "3,4").set("power_timeout", "300ms").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("profile apc-rpdu2").doesNotContain("profile apc ")
                .contains("plug 4 reads ON, not OFF");
    }

    @Test
    @DisplayName("a status reply that is neither the on nor the off value fails before anything is switched")
    void neitherOnNorOff() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));
        pdu.answer(RPDU2_STATUS + "3", SnmpValue.integer(7));

        FenceOutcome off = run(pdu(pdu, "apc-rpdu2", "3").build(), FenceAction.OFF);
        FenceOutcome status = run(pdu(pdu, "apc-rpdu2", "3").build(), FenceAction.STATUS);

        assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("plug 3 reads 7 at " + RPDU2_STATUS + "3, neither on [2] nor off [1]",
                "remedy never guesses a power state");
        assertThat(status.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(pdu.sets()).isEmpty();
        assertThat(pdu.device().outlet(3).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("a device that answers with the community has it masked in the agent's own outcome")
    void echoedCommunityMasked() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));
        pdu.answer(RPDU2_STATUS + "3", SnmpValue.string("error: " + COMMUNITY));

        FenceOutcome status = run(pdu(pdu, "apc-rpdu2", "3").build(), FenceAction.STATUS);

        assertThat(status.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(status.detail()).contains("reads 'error: " + Secret.MASK + "'").doesNotContain(COMMUNITY);
    }

    @Test
    @DisplayName("a plug not of the profile's form is refused by create: the device hears nothing")
    void plugCheckedBeforeSending() {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));

        assertThatThrownBy(() -> new SnmpFenceAgentProvider().create(pdu(pdu, "apc-spdu", "3,100").build()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("'100' is not a plug of profile apc-spdu");
        assertThat(pdu.requests()).isZero();
    }

    @Test
    @DisplayName("profile apc settles on rPDU2 or the MasterSwitch sPDU table by what the device answers")
    void apcChoice() throws InterruptedException {
        SnmpAgentSimulator rack = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));
        SnmpAgentSimulator master = device(SnmpDeviceKind.APC_MASTER_SWITCH, Access.community(COMMUNITY));

        FenceOutcome onRack = run(pdu(rack, "apc", "2").build(), FenceAction.OFF);
        FenceOutcome onMaster = run(pdu(master, "apc", "2").build(), FenceAction.OFF);

        assertThat(onRack.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(onRack.detail()).contains("profile apc-rpdu2 at");
        assertThat(onMaster.status()).as("%s", onMaster).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(onMaster.detail()).contains("profile apc-spdu at");
        assertThat(master.sets()).extracting(VarBind::oid).extracting(Object::toString)
                .containsExactly(".1.3.6.1.4.1.318.1.1.4.4.2.1.3.2");
        assertThat(master.device().outlet(2).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("profiles eaton and raritan settle on the table the emulated Managed ePDU and Dominion PX answer")
    void eatonAndRaritan() throws InterruptedException {
        SnmpAgentSimulator eaton = device(SnmpDeviceKind.EATON_EPDU, Access.community(COMMUNITY));
        SnmpAgentSimulator raritan = device(SnmpDeviceKind.RARITAN_PX, Access.community(COMMUNITY));

        FenceOutcome eatonOff = run(pdu(eaton, "eaton", "1,2").build(), FenceAction.OFF);
        FenceOutcome raritanReboot = run(pdu(raritan, "raritan", "5").build(), FenceAction.REBOOT);

        assertThat(eatonOff.status()).as("%s", eatonOff).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(eatonOff.detail()).contains("profile eaton-managed at");
        assertThat(eaton.device().outlet(1).power()).isEqualTo(PowerState.OFF);
        assertThat(eaton.device().outlet(2).power()).isEqualTo(PowerState.OFF);
        assertThat(raritanReboot.status()).as("%s", raritanReboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(raritan.device().outlet(5).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("a port by ifName or ifDescr is looked up once, then checked by one GET of its name before each use")
    void portByName() throws InterruptedException {
        SnmpAgentSimulator sw = device(SnmpDeviceKind.IF_MIB_SWITCH, Access.community(COMMUNITY));
        SnmpFabricAgentProvider fabric = new SnmpFabricAgentProvider();
        AgentConfig config = v2c(fabric, sw, "if-mib", "Gi1/0/3,GigabitEthernet1/0/4").build();

        try (var agent = fabric.create(config)) {
            FenceOutcome off = agent.execute(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(20)));
            int firstRequests = sw.requests();
            sw.clearHistory();
            FenceOutcome status = agent.execute(new FenceRequest(FenceAction.STATUS, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(20)));

            assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
            assertThat(sw.device().outlet(3).power()).isEqualTo(PowerState.OFF);
            assertThat(sw.device().outlet(4).power()).isEqualTo(PowerState.OFF);
            assertThat(status.power()).isEqualTo(PowerState.OFF);
            assertThat(sw.requests()).as("requests of STATUS with both names known: a name check and a read each")
                    .isEqualTo(4).isLessThan(firstRequests);
        }
    }

    @Test
    @DisplayName("a known port whose name moved is looked up again, and one the switch no longer has fails by name")
    void renamedPort() throws InterruptedException {
        SnmpAgentSimulator sw = device(SnmpDeviceKind.IF_MIB_SWITCH, Access.community(COMMUNITY));
        SnmpFabricAgentProvider fabric = new SnmpFabricAgentProvider();

        try (var agent = fabric.create(v2c(fabric, sw, "if-mib", "Gi1/0/3").build())) {
            agent.execute(new FenceRequest(FenceAction.STATUS, "test"), FenceContext.start(TimeSource.system(),
                    Duration.ofSeconds(20)));
            sw.answer("1.3.6.1.2.1.31.1.1.1.1.10103", SnmpValue.string("Gi9/9/9"));
            sw.answer("1.3.6.1.2.1.2.2.1.2.10103", SnmpValue.string("GigabitEthernet9/9/9"));
            FenceOutcome off = agent.execute(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(20)));

            assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
            assertThat(off.detail()).contains("has no plug named 'Gi1/0/3'");
            assertThat(sw.sets()).isEmpty();
        }
    }

    @Test
    @DisplayName("SNMPv3 authNoPriv with SHA-1, and authPriv with SHA-512 and AES-128, switch an outlet")
    void v3Protocols() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.users(
                User.authNoPriv("sha1user", "SHA", "sha1-passphrase"),
                User.authPriv("sha512user", "SHA-512", "sha512-passphrase", "AES", "aes128-passphrase")));
        AgentConfig.Builder base = new SnmpFenceAgentProvider().configure().set("ip", pdu.host())
                .set("ipport", Integer.toString(pdu.port())).set("snmp_version", "3").set("profile", "apc")
                .set("poll_interval", "20ms").set("snmp_timeout", "300ms").set("snmp_retries", "1");

        FenceOutcome sha1 = run(base.set("username", "sha1user").set("snmp_sec_level", "authNoPriv")
                .set("snmp_auth_prot", "SHA").secret("password", Secret.of("sha1-passphrase")).set("plug", "1")
                .build(), FenceAction.OFF);
        FenceOutcome sha512 = run(base.set("username", "sha512user").set("snmp_sec_level", "authPriv")
                .set("snmp_auth_prot", "SHA-512").secret("password", Secret.of("sha512-passphrase"))
                .set("snmp_priv_prot", "AES").secret("snmp_priv_passwd", Secret.of("aes128-passphrase"))
                .set("plug", "2").build(), FenceAction.OFF);
        FenceOutcome wrongPriv = run(base.secret("snmp_priv_passwd", Secret.of("not-the-passphrase")).set("plug", "3")
                .build(), FenceAction.OFF);

        assertThat(sha1.status()).as("%s", sha1).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(sha512.status()).as("%s", sha512).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(wrongPriv.status()).as("%s", wrongPriv).isIn(FenceStatus.FAILED, FenceStatus.TIMED_OUT);
        assertThat(pdu.device().outlet(3).power()).isEqualTo(PowerState.ON);
        assertThat(wrongPriv.toString()).doesNotContain("not-the-passphrase", "sha512-passphrase");
    }

    @Test
    @DisplayName("a read-only community reads, and its SET is refused with what to do")
    void readOnlyCommunity() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community("someone-else-rw")
                .withReadOnly(COMMUNITY));

        FenceOutcome status = run(pdu(pdu, "apc-rpdu2", "3").build(), FenceAction.STATUS);
        FenceOutcome off = run(pdu(pdu, "apc-rpdu2", "3").build(), FenceAction.OFF);

        assertThat(status.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("refused SET " + RPDU2_CONTROL.substring(1) + "3 = 2", "noAccess",
                "may only read");
        assertThat(off.detail()).doesNotContain(COMMUNITY);
    }

    @Test
    @DisplayName("REBOOT by the device's own reboot of two outlets is confirmed only by a round that saw both off")
    void deviceReboot() throws InterruptedException {
        SnmpAgentSimulator master = device(SnmpDeviceSpec.of("ms", SnmpDeviceKind.APC_MASTER_SWITCH, 4)
                .withRebootDelay(Duration.ofSeconds(1)), Access.community(COMMUNITY));

        FenceOutcome reboot = run(pdu(master, "apc-spdu", "1,3").set("reboot_method", "device")
                .set("poll_interval", "100ms").build(), FenceAction.REBOOT);
        FenceOutcome tooSlow = run(pdu(master, "apc-spdu", "2").set("reboot_method", "device")
                .set("poll_interval", "2s").build(), FenceAction.REBOOT);

        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.detail()).contains("all seen OFF together, then ON", "plug 1 ON, plug 3 ON");
        assertThat(master.sets()).extracting(set -> set.oid().toString(), set -> set.value().intValue())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(".1.3.6.1.4.1.318.1.1.4.4.2.1.3.1", 3),
                        org.assertj.core.groups.Tuple.tuple(".1.3.6.1.4.1.318.1.1.4.4.2.1.3.3", 3));
        assertThat(master.device().outlet(1).history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(master.device().outlet(3).history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(tooSlow.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(tooSlow.detail()).contains("not longer than poll_interval", "nothing was switched");
        assertThat(master.device().outlet(2).history()).isEmpty();
    }

    @Test
    @DisplayName("a device reboot whose outlets are never seen off together fails: nothing proves the node lost power")
    void deviceRebootNotSeenOff() throws InterruptedException {
        SnmpAgentSimulator master = device(SnmpDeviceSpec.of("ms", SnmpDeviceKind.APC_MASTER_SWITCH, 4)
                .withRebootDelay(Duration.ofSeconds(1)), Access.community(COMMUNITY));
        master.answer("1.3.6.1.4.1.318.1.1.4.4.2.1.3.3", SnmpValue.integer(1));

        FenceOutcome reboot = run(pdu(master, "apc-spdu", "1,3").set("reboot_method", "device")
                .set("poll_interval", "100ms").set("power_timeout", "300ms").build(), FenceAction.REBOOT);

        assertThat(reboot.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(reboot.detail()).contains("no round of reads saw every plug OFF", "plug 3 ON",
                "nothing proves the node lost power");
    }

    @Test
    @DisplayName("LIST names every outlet with its state")
    void list() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community(COMMUNITY));
        pdu.device().outlet(2).power(PowerState.OFF);

        FenceOutcome list = run(pdu(pdu, "apc", "1").build(), FenceAction.LIST);

        assertThat(list.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(list.plugs()).hasSize(8).first().isEqualTo(new Plug("1", "Outlet 1", PowerState.ON));
        assertThat(list.plugs().get(1)).isEqualTo(new Plug("2", "Outlet 2", PowerState.OFF));
    }

    @Test
    @DisplayName("the Managed ePDU counts rows from 0: plug 3 is row 2, and LIST gives the plugs a user writes")
    void rowsFromZero() throws InterruptedException {
        SnmpAgentSimulator eaton = device(SnmpDeviceKind.EATON_EPDU, Access.community(COMMUNITY));

        FenceOutcome off = run(pdu(eaton, "eaton", "3").build(), FenceAction.OFF);
        FenceOutcome list = run(pdu(eaton, "eaton", "3").build(), FenceAction.LIST);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(eaton.sets()).extracting(set -> set.oid().toString())
                .containsExactly(".1.3.6.1.4.1.534.6.6.6.1.2.2.1.3.2");
        assertThat(eaton.device().outlet(3).power()).isEqualTo(PowerState.OFF);
        assertThat(list.plugs()).hasSize(8).first().isEqualTo(new Plug("1", "Outlet 1", PowerState.ON));
        assertThat(list.plugs().get(2)).isEqualTo(new Plug("3", "Outlet 3", PowerState.OFF));
    }

    @Test
    @DisplayName("SNMPv1: apc settles on sPDU past v1's noSuchName, and a port name is found by GETNEXT walks")
    void v1() throws InterruptedException {
        SnmpAgentSimulator master = device(SnmpDeviceKind.APC_MASTER_SWITCH, Access.community(COMMUNITY));
        SnmpAgentSimulator sw = device(SnmpDeviceKind.IF_MIB_SWITCH, Access.community(COMMUNITY));

        FenceOutcome off = run(pdu(master, "apc", "4").set("snmp_version", "1").build(), FenceAction.OFF);
        FenceOutcome port = run(v2c(new SnmpFabricAgentProvider(), sw, "if-mib", "GigabitEthernet1/0/6")
                .set("snmp_version", "1").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("profile apc-spdu at", "(SNMP v1)");
        assertThat(master.device().outlet(4).power()).isEqualTo(PowerState.OFF);
        assertThat(port.status()).as("%s", port).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(sw.device().outlet(6).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("a pending value is waited out, and fails as still changing when it lasts past power_timeout")
    void pending() throws InterruptedException {
        SnmpAgentSimulator eaton = device(SnmpDeviceKind.EATON_EPDU, Access.community(COMMUNITY));
        eaton.answer("1.3.6.1.4.1.534.6.6.6.1.2.2.1.3.1", SnmpValue.integer(2));

        FenceOutcome status = run(pdu(eaton, "eaton-managed", "2").set("power_timeout", "200ms").build(),
                FenceAction.STATUS);

        assertThat(status.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(status.detail()).contains("plug 2 is still changing after power_timeout (200 ms)");
    }

    @Test
    @DisplayName("a wrong community gets no answer: FAILED, saying what to check, after the bounded retries")
    void wrongCommunity() throws InterruptedException {
        SnmpAgentSimulator pdu = device(SnmpDeviceKind.APC_RACK_PDU, Access.community("the-right-community"));

        FenceOutcome off = run(pdu(pdu, "apc-rpdu2", "3").build(), FenceAction.OFF);

        assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(off.attempts()).isEqualTo(2);
        assertThat(off.detail()).contains("no answer from udp:" + pdu.host() + "/" + pdu.port() + " (SNMP v2c)",
                "after 2 requests", "the community");
    }
}
