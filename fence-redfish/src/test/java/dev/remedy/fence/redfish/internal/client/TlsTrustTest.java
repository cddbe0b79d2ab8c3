package dev.remedy.fence.redfish.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsTrustTest {

    @Test
    @DisplayName("a SHA-256 fingerprint is read with or without colons and in either case; others are refused")
    void fingerprints() {
        String hex = "AB".repeat(32);
        assertThat(TlsTrust.parseFingerprint(hex)).hasSize(32);
        assertThat(TlsTrust.parseFingerprint(String.join(":", java.util.Collections.nCopies(32, "ab"))))
                .isEqualTo(TlsTrust.parseFingerprint(hex));
        assertThatThrownBy(() -> TlsTrust.parseFingerprint("ab:cd")).hasMessageContaining("64 hex digits");
        assertThatThrownBy(() -> TlsTrust.parseFingerprint("zz".repeat(32))).hasMessageContaining("64 hex digits");
    }

    @Test
    @DisplayName("a CA file without a certificate is refused, naming the file")
    void emptyCaFile(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("ca.pem"), "not a certificate\n");
        assertThatThrownBy(() -> TlsTrust.caBundle(empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(empty.toString());
    }
}
