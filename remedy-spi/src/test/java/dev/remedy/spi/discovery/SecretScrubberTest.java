package dev.remedy.spi.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SecretScrubber")
class SecretScrubberTest {

    /** Its base64 holds '+' and '/', its URL-safe base64 '-' and '_', and its length leaves base64 padding. */
    private static final String PASSWORD = "pw>>>?hunter2";

    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("ip", ParameterType.STRING).required().description("address").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).defaultValue("admin")
                    .description("login").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).secret().description("password").build(),
            ParameterDescriptor.builder("kg", ParameterType.STRING).secret().description("key").build(),
            ParameterDescriptor.builder("port", ParameterType.INTEGER).defaultValue("623").description("port").build());

    private static AgentConfig config(String password) {
        return AgentConfig.builder("bmc", PARAMETERS).set("ip", "10.0.0.5").set("password", password).build();
    }

    private final SecretScrubber scrubber = SecretScrubber.of(config(PASSWORD));

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("masks the value as it is, wherever it appears, and leaves text without it alone")
    void rawValue() {
        assertThat(scrubber.scrub("answered HTTP 400: body: {\"Password\":\"" + PASSWORD + "\"} (" + PASSWORD + ")"))
                .isEqualTo("answered HTTP 400: body: {\"Password\":\"" + Secret.MASK + "\"} (" + Secret.MASK + ")");
        assertThat(scrubber.scrub("no secret here: pw>>> hunter")).isEqualTo("no secret here: pw>>> hunter");
        assertThat(scrubber.scrub((String) null)).isNull();
    }

    @Test
    @DisplayName("masks the value's standard and URL-safe base64, padded or not")
    void base64Forms() {
        String standard = base64(PASSWORD);
        String urlSafe = Base64.getUrlEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8));
        assertThat(standard).contains("+", "/", "=");
        assertThat(urlSafe).contains("-", "_");

        assertThat(scrubber.scrub("token " + standard + " or " + urlSafe)).doesNotContain(standard.replace("=", ""))
                .doesNotContain(urlSafe.replace("=", ""))
                .isEqualTo("token " + Secret.MASK + "== or " + Secret.MASK + "==");
    }

    @Test
    @DisplayName("masks the HTTP Basic pair of the value with the user name, given or by default, and other text values")
    void basicForms() {
        String header = "Authorization: Basic " + base64("admin:" + PASSWORD);
        assertThat(scrubber.scrub(header)).isEqualTo("Authorization: Basic " + Secret.MASK + "==");
        String other = base64("root:" + PASSWORD);
        assertThat(SecretScrubber.of(AgentConfig.builder("bmc", PARAMETERS).set("ip", "10.0.0.5")
                .set("username", "root").set("password", PASSWORD).build()).scrub(other)).isEqualTo(Secret.MASK);
        assertThat(scrubber.scrub(base64("10.0.0.5:" + PASSWORD)))
                .as("every text parameter, since the agent's user may have any name").doesNotContain("MTAuMC4wLjU6");
    }

    @Test
    @DisplayName("masks the URL-encoded value, with '+' or '%20' for blanks, and the JSON-escaped value")
    void urlAndJsonForms() {
        String password = "p@ss w/rd&\"q\\";
        SecretScrubber scrubbing = SecretScrubber.of(config(password));

        assertThat(scrubbing.scrub("user=admin&password=p%40ss+w%2Frd%26%22q%5C")).isEqualTo("user=admin&password="
                + Secret.MASK);
        assertThat(scrubbing.scrub("/login?password=p%40ss%20w%2Frd%26%22q%5C")).isEqualTo("/login?password="
                + Secret.MASK);
        assertThat(scrubbing.scrub("{\"Password\":\"p@ss w/rd&\\\"q\\\\\"}")).isEqualTo("{\"Password\":\""
                + Secret.MASK + "\"}");
    }

    @Test
    @DisplayName("masks every secret parameter, and no text at all for an empty secret")
    void everySecretAndNoEmptyOne() {
        SecretScrubber two = SecretScrubber.of(AgentConfig.builder("bmc", PARAMETERS).set("ip", "10.0.0.5")
                .set("password", PASSWORD).set("kg", "0123456789abcdef").build());
        assertThat(two.scrub(PASSWORD + " / 0123456789abcdef")).isEqualTo(Secret.MASK + " / " + Secret.MASK);

        SecretScrubber empty = SecretScrubber.of(config(""));
        assertThat(empty.scrub("admin:  \"\" 10.0.0.5")).isEqualTo("admin:  \"\" 10.0.0.5");
    }

    @Test
    @DisplayName("replaces an exception whose chain holds the secret by one that keeps every class name and no secret")
    void causeChain() {
        IOException inner = new IOException("reply was {\"Password\":\"" + PASSWORD + "\"}");
        IllegalStateException suppressed = new IllegalStateException("logout with " + base64("admin:" + PASSWORD));
        RuntimeException outer = new UncheckedIOException("login failed", inner);
        outer.addSuppressed(suppressed);

        Throwable scrubbed = scrubber.scrub((Throwable) outer);

        assertThat(scrubbed).isNotSameAs(outer).isInstanceOf(ScrubbedException.class)
                .hasMessage("java.io.UncheckedIOException: login failed");
        assertThat(scrubbed.getStackTrace()).isEqualTo(outer.getStackTrace());
        assertThat(scrubbed.getCause()).isInstanceOf(ScrubbedException.class)
                .hasMessage("java.io.IOException: reply was {\"Password\":\"" + Secret.MASK + "\"}");
        assertThat(scrubbed.getSuppressed()).singleElement().satisfies(s -> assertThat(s)
                .hasMessage("java.lang.IllegalStateException: logout with " + Secret.MASK + "=="));
        assertThat(texts(scrubbed)).allSatisfy(text -> assertThat(text).doesNotContain(PASSWORD)
                .doesNotContain(base64("admin:" + PASSWORD).replace("=", "")));
    }

    @Test
    @DisplayName("keeps an exception without the secret, and the clean tail of a chain, as they are")
    void cleanExceptionsStay() {
        IllegalArgumentException clean = new IllegalArgumentException("port 70000 is not a port");
        assertThat(scrubber.scrub((Throwable) clean)).isSameAs(clean);

        IOException tail = new IOException("connection reset");
        Throwable scrubbed = scrubber.scrub((Throwable) new IllegalStateException("sent " + PASSWORD, tail));
        assertThat(scrubbed.getCause()).isSameAs(tail);
    }

    @Test
    @DisplayName("an interrupt or a cancellation that holds the secret keeps its type, so callers still recognize it")
    void interruptAndCancellationKeepTheirType() {
        InterruptedException interrupted = scrubber.scrub(new InterruptedException("stopped while sending "
                + PASSWORD));
        assertThat(interrupted).hasMessage("stopped while sending " + Secret.MASK);

        RuntimeException cancelled = scrubber.scrub((RuntimeException) new CancellationException("OFF with "
                + PASSWORD + " was cancelled"));
        assertThat(cancelled).isInstanceOf(CancellationException.class)
                .hasMessage("OFF with " + Secret.MASK + " was cancelled");
    }

    @Test
    @DisplayName("an exception chain that loops is scrubbed without looping")
    void loopingChain() {
        IllegalStateException first = new IllegalStateException("first " + PASSWORD);
        IllegalStateException second = new IllegalStateException("second", first);
        first.initCause(second);

        Throwable scrubbed = scrubber.scrub((Throwable) first);

        assertThat(texts(scrubbed)).hasSize(2).allSatisfy(text -> assertThat(text).doesNotContain(PASSWORD));
    }

    @Test
    @DisplayName("scrubs an outcome's detail, cause and plugs, and keeps its status, power, attempts and time")
    void outcome() {
        FenceOutcome outcome = FenceOutcome.of(FenceStatus.FAILED, PowerState.ON, "BMC said " + PASSWORD)
                .withCause(new IllegalStateException("echo " + PASSWORD)).withAttempts(3)
                .withElapsed(Duration.ofMillis(1200))
                .withPlugs(List.of(new Plug("1", "owner " + PASSWORD, PowerState.ON),
                        new Plug("2", "", PowerState.OFF)));

        FenceOutcome scrubbed = scrubber.scrub(outcome);

        assertThat(scrubbed.detail()).isEqualTo("BMC said " + Secret.MASK);
        assertThat(scrubbed.cause()).hasValueSatisfying(c -> assertThat(c)
                .hasMessage("java.lang.IllegalStateException: echo " + Secret.MASK));
        assertThat(scrubbed.plugs()).containsExactly(new Plug("1", "owner " + Secret.MASK, PowerState.ON),
                new Plug("2", "", PowerState.OFF));
        assertThat(scrubbed).extracting(FenceOutcome::status, FenceOutcome::power, FenceOutcome::attempts,
                FenceOutcome::elapsed).containsExactly(FenceStatus.FAILED, PowerState.ON, 3, Duration.ofMillis(1200));
        assertThat(scrubbed.toString()).doesNotContain(PASSWORD);
    }

    /** The text of every exception in {@code error}'s chain and of their suppressed ones. */
    private static List<String> texts(Throwable error) {
        List<String> texts = new ArrayList<>();
        List<Throwable> seen = new ArrayList<>();
        Stream.iterate(error, t -> t != null && seen.stream().noneMatch(s -> s == t), Throwable::getCause)
                .forEach(t -> {
                    seen.add(t);
                    texts.add(t.toString());
                    Stream.of(t.getSuppressed()).map(Throwable::toString).forEach(texts::add);
                });
        return texts;
    }
}
