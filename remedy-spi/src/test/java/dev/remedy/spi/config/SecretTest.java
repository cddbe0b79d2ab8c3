package dev.remedy.spi.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Secret")
class SecretTest {

    private static final String VALUE = "hunter2-correct-horse";

    @Test
    @DisplayName("toString() is always the mask, whatever the value")
    void masked() {
        assertThat(Secret.of(VALUE)).hasToString("******");
        assertThat(Secret.of("")).hasToString("******");
        assertThat(Secret.of("x".repeat(100))).hasToString("******");
        assertThat(String.valueOf(Secret.of(VALUE))).doesNotContain("hunter2");
        assertThat(String.format("%s", Secret.of(VALUE))).doesNotContain("hunter2");
        assertThat("password=" + Secret.of(VALUE)).isEqualTo("password=******");
    }

    @Test
    @DisplayName("reveal() gives the value back, from a string or a char array")
    void reveal() {
        assertThat(Secret.of(VALUE).reveal()).isEqualTo(VALUE);
        assertThat(Secret.of(VALUE.toCharArray()).reveal()).isEqualTo(VALUE);
    }

    @Test
    @DisplayName("a secret made from a char array keeps its own copy, so the caller may clear the array")
    void copiesCharArray() {
        char[] chars = VALUE.toCharArray();

        Secret secret = Secret.of(chars);
        Arrays.fill(chars, '\0');

        assertThat(secret.reveal()).isEqualTo(VALUE);
    }

    @Test
    @DisplayName("revealBytes() gives UTF-8 bytes, a fresh array each time")
    void revealBytes() {
        Secret secret = Secret.of("pässwörd-€");

        byte[] first = secret.revealBytes();
        assertThat(first).isEqualTo("pässwörd-€".getBytes(StandardCharsets.UTF_8));
        Arrays.fill(first, (byte) 0);

        assertThat(secret.revealBytes()).isEqualTo("pässwörd-€".getBytes(StandardCharsets.UTF_8));
        assertThat(Secret.of("").revealBytes()).isEmpty();
    }

    @Test
    @DisplayName("blank() is true only for the empty string")
    void blank() {
        assertThat(Secret.of("").blank()).isTrue();
        assertThat(Secret.of(new char[0]).blank()).isTrue();
        assertThat(Secret.of(" ").blank()).isFalse();
        assertThat(Secret.of(VALUE).blank()).isFalse();
    }

    @Test
    @DisplayName("matches() compares values, not identities")
    void matches() {
        Secret secret = Secret.of(VALUE);

        assertThat(secret.matches(secret)).isTrue();
        assertThat(secret.matches(Secret.of(VALUE))).isTrue();
        assertThat(secret.matches(Secret.of(VALUE.toCharArray()))).isTrue();
        assertThat(secret.matches(Secret.of("hunter2"))).isFalse();
        assertThat(secret.matches(Secret.of(VALUE + "x"))).isFalse();
        assertThat(secret.matches(Secret.of(VALUE.toUpperCase()))).isFalse();
        assertThat(secret.matches(Secret.of(""))).isFalse();
        assertThat(Secret.of("").matches(Secret.of(""))).isTrue();
        assertThat(Secret.of("ä").matches(Secret.of("a"))).isFalse();
        assertThat(secret.reveal()).as("matches() leaves the value intact").isEqualTo(VALUE);
    }

    @Test
    @DisplayName("a null value is refused")
    void nulls() {
        assertThatThrownBy(() -> Secret.of((String) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Secret.of((char[]) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Secret.of(VALUE).matches(null)).isInstanceOf(NullPointerException.class);
    }
}
