package dev.remedy.simulators.openssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.openssh.OpenSshOptions.HostKeyType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OpenSshOptionsTest {

    @Test
    @DisplayName("defaults: user remedy-fence, an ed25519 host key, 8 outlets; withers change one field")
    void defaultsAndWithers() {
        OpenSshOptions defaults = OpenSshOptions.defaults();
        assertThat(defaults.user()).isEqualTo("remedy-fence");
        assertThat(defaults.password()).isEqualTo(OpenSshOptions.DEFAULT_PASSWORD);
        assertThat(defaults.hostKeyType()).isEqualTo(HostKeyType.ED25519);
        assertThat(defaults.outlets()).isEqualTo(8);

        OpenSshOptions changed = defaults.withUser("pdu_admin").withPassword("s3cret with space")
                .withHostKeyType(HostKeyType.RSA).withOutlets(24);
        assertThat(changed).isEqualTo(new OpenSshOptions("pdu_admin", "s3cret with space", HostKeyType.RSA, 24));
        assertThat(changed.toString()).doesNotContain("s3cret").contains("pdu_admin", "RSA", "24");
        assertThat(HostKeyType.RSA.keyType()).isEqualTo("ssh-rsa");
        assertThat(HostKeyType.ED25519.keyType()).isEqualTo("ssh-ed25519");
    }

    @Test
    @DisplayName("user names useradd would refuse, root, bad passwords and outlet counts are rejected up front")
    void validation() {
        OpenSshOptions defaults = OpenSshOptions.defaults();
        assertThatThrownBy(() -> defaults.withUser("root")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not root");
        assertThatThrownBy(() -> defaults.withUser("Fence")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withUser("-x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withUser("a".repeat(33))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withPassword("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withPassword("two\nlines")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chpasswd").hasMessageNotContaining("two");
        assertThatThrownBy(() -> defaults.withOutlets(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withOutlets(49)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withHostKeyType(null)).isInstanceOf(NullPointerException.class);
        assertThat(defaults.withUser("_a-1").withOutlets(48).outlets()).isEqualTo(48);
    }
}
