package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("BMC specs")
class BmcSpecTest {

    @Test
    @DisplayName("defaults: suites 3 and 17, four sessions, 60 s idle timeout, powered on, no BMC key")
    void defaults() {
        BmcSpec spec = BmcSpec.ofDefaults();

        assertThat(spec.users()).containsExactly(new BmcUser("admin", "remedy-secret", Privilege.ADMINISTRATOR));
        assertThat(spec.cipherSuites()).containsExactly(3, 17);
        assertThat(spec.maxSessions()).isEqualTo(4);
        assertThat(spec.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(spec.initialPower()).isEqualTo(PowerState.ON);
        assertThat(spec.bmcKey()).isEmpty();
        assertThat(spec.guid()).isEmpty();
    }

    @Test
    @DisplayName("the BMC key is zero-padded to 20 bytes; null, empty or all zero means none")
    void bmcKey() {
        assertThat(BmcSpec.builder().user("a", "b").bmcKeyHex("0x6162").build().bmcKey().orElseThrow())
                .hasSize(20).startsWith(0x61, 0x62).endsWith(0, 0);
        assertThat(BmcSpec.builder().user("a", "b").bmcKey(null).build().bmcKey()).isEmpty();
        assertThat(BmcSpec.builder().user("a", "b").bmcKeyHex("0000").build().bmcKey()).isEmpty();
    }

    @Test
    @DisplayName("toString shows neither passwords nor the BMC key")
    void noSecrets() {
        String text = BmcSpec.builder().user("admin", "remedy-secret").bmcKeyHex("73656372657421").build().toString();

        assertThat(text).doesNotContain("remedy-secret").doesNotContain("73656372657421").contains("****");
    }

    @Test
    @DisplayName("invalid settings are refused at once with the property and the limit")
    void validation() {
        BmcSpec.Builder builder = BmcSpec.builder().user("admin", "pw");

        assertThatThrownBy(() -> builder.user("admin", "other")).hasMessageContaining("'admin' is already defined");
        assertThatThrownBy(() -> builder.user("a-name-longer-than-16", "pw")).hasMessageContaining("1 to 16");
        assertThatThrownBy(() -> builder.user("x", "a-password-longer-than-20")).hasMessageContaining("at most 20");
        assertThatThrownBy(() -> builder.cipherSuites(3, 8)).hasMessageContaining("does not speak suite 8");
        assertThatThrownBy(() -> builder.cipherSuites()).hasMessageContaining("at least one");
        assertThatThrownBy(() -> builder.maxSessions(0)).hasMessageContaining("maxSessions");
        assertThatThrownBy(() -> builder.bmcKeyHex("abc")).hasMessageContaining("bmcKeyHex");
        assertThatThrownBy(() -> builder.bmcKey(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
            18, 19, 20, 21})).hasMessageContaining("longer than the 20");
        assertThatThrownBy(() -> builder.guid(new byte[3])).hasMessageContaining("a GUID has 16");
        assertThatThrownBy(() -> builder.idleTimeout(Duration.ZERO)).hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> builder.initialPower(PowerState.UNKNOWN)).hasMessageContaining("ON or OFF");
        assertThatThrownBy(() -> BmcSpec.builder().build()).hasMessageContaining("at least one user");
    }

    @Test
    @DisplayName("a user's toString masks the password")
    void userToString() {
        assertThat(new BmcUser("admin", "remedy-secret", Privilege.USER).toString())
                .isEqualTo("BmcUser[admin, USER, password=****]");
    }
}
