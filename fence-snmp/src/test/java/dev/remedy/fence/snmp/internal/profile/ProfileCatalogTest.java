package dev.remedy.fence.snmp.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.profiles.Catalog;
import dev.remedy.spi.FencingKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProfileCatalogTest {

    private static final Catalog<Profile> CATALOG = ProfileCatalog.builtIn();

    private static DeviceProfile table(String name) {
        return (DeviceProfile) CATALOG.find(name).orElseThrow();
    }

    @Test
    @DisplayName("the jar ships APC, Eaton and Raritan (each a choice of two generations) and IF-MIB profiles")
    void builtIns() {
        assertThat(CATALOG.names()).containsExactly("apc", "apc-rpdu2", "apc-spdu", "eaton", "eaton-epdu",
                "eaton-managed", "if-mib", "raritan", "raritan-px", "raritan-px2");
        assertThat(CATALOG.find("eaton").orElseThrow()).isInstanceOfSatisfying(ProfileChoice.class, choice ->
                assertThat(choice.candidates()).extracting(DeviceProfile::name).containsExactly("eaton-epdu",
                        "eaton-managed"));
        assertThat(CATALOG.find("raritan").orElseThrow()).isInstanceOfSatisfying(ProfileChoice.class, choice ->
                assertThat(choice.candidates()).extracting(DeviceProfile::name).containsExactly("raritan-px2",
                        "raritan-px"));
        assertThat(CATALOG.names(FencingKind.FABRIC)).containsExactly("if-mib");
        assertThat(CATALOG.find("apc").orElseThrow()).isInstanceOfSatisfying(ProfileChoice.class, choice ->
                assertThat(choice.candidates()).extracting(DeviceProfile::name).containsExactly("apc-rpdu2",
                        "apc-spdu"));
    }

    @Test
    @DisplayName("rPDU2 reads the status column and writes the control column, with different values for on")
    void rpdu2() {
        DeviceProfile rpdu2 = table("apc-rpdu2");

        assertThat(rpdu2.status().oid().of("3")).isEqualTo("1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.3");
        assertThat(rpdu2.status().on()).containsExactly(2);
        assertThat(rpdu2.status().off()).containsExactly(1);
        assertThat(rpdu2.on()).isEqualTo(new Write(new Oid("1.3.6.1.4.1.318.1.1.26.9.2.4.1.5.{index}"), 1));
        assertThat(rpdu2.off().value()).isEqualTo(2);
        assertThat(rpdu2.reboot()).hasValueSatisfying(r -> {
            assertThat(r.write().value()).isEqualTo(3);
            assertThat(r.delay().of("3")).isEqualTo("1.3.6.1.4.1.318.1.1.26.9.2.1.1.7.3");
        });
        assertThat(rpdu2.status().oid().column()).hasValue("1.3.6.1.4.1.318.1.1.26.9.2.3.1.5");
    }

    @Test
    @DisplayName("a plug becomes its OID index by the profile: Eaton's unit defaults to 0, Raritan's PDU to 1")
    void indexes() {
        assertThat(table("eaton-epdu").indexOf("3")).hasValue("0.3");
        assertThat(table("eaton-epdu").indexOf("1.3")).hasValue("1.3");
        assertThat(table("raritan-px2").indexOf("3")).hasValue("1.3");
        assertThat(table("raritan-px2").indexOf("2.12")).hasValue("2.12");
        assertThat(table("apc-rpdu2").indexOf("25")).hasValue("25");
        assertThat(table("apc-rpdu2").indexOf("0")).isEmpty();
        assertThat(table("apc-spdu").indexOf("100")).isEmpty();
        assertThat(table("if-mib").indexOf("10101")).hasValue("10101");
        assertThat(table("if-mib").indexOf("Gi1/0/3")).isEmpty();
        assertThat(table("eaton-managed").indexOf("1")).hasValue("0");
    }

    @Test
    @DisplayName("an index maps back to the plug a user writes: the offset undone, or the index itself")
    void plugOfIndex() {
        assertThat(table("eaton-managed").plugOf("0")).hasValue("1");
        assertThat(table("eaton-epdu").plugOf("0.3")).hasValue("0.3");
        assertThat(table("raritan-px2").plugOf("2.3")).hasValue("2.3");
        assertThat(table("apc-rpdu2").plugOf("12")).hasValue("12");
        assertThat(table("apc-spdu").plugOf("100")).isEmpty();
    }

    @Test
    @DisplayName("names: IF-MIB ports by ifName then ifDescr; a name is printable, has no comma and no outer space")
    void names() {
        DeviceProfile ifMib = table("if-mib");

        assertThat(ifMib.names()).extracting(Oid::template).containsExactly("1.3.6.1.2.1.31.1.1.1.1",
                "1.3.6.1.2.1.2.2.1.2");
        assertThat(ifMib.mayName("GigabitEthernet1/0/3")).isTrue();
        assertThat(ifMib.mayName("Slot: 0 Port: 1 Gigabit - Level")).isTrue();
        assertThat(ifMib.mayName("eth0,eth1")).isFalse();
        assertThat(ifMib.mayName(" eth0")).isFalse();
        assertThat(ifMib.mayName("eth0\n")).isFalse();
        assertThat(ifMib.mayName("x".repeat(DeviceProfile.MAX_NAME + 1))).isFalse();
    }

    @Test
    @DisplayName("the profiles say whether fabric isolation survives a restart: IF-MIB's running state does not")
    void isolation() {
        assertThat(table("if-mib").isolationPersists()).isFalse();
        assertThat(table("if-mib").kind()).isEqualTo(FencingKind.FABRIC);
        assertThat(table("if-mib").reboot()).isEmpty();
    }

    @Test
    @DisplayName("Eaton's pending values are neither on nor off; Raritan reads on(7)/off(8) but writes 1/0")
    void values() {
        assertThat(table("eaton-epdu").status().pending()).containsExactlyInAnyOrder(2, 3);
        assertThat(table("raritan-px2").status().on()).containsExactly(7);
        assertThat(table("raritan-px2").on().value()).isEqualTo(1);
        assertThat(table("raritan-px2").reboot()).isEmpty();
    }
}
