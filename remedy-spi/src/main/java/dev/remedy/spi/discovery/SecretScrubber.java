package dev.remedy.spi.discovery;

import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.Plug;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;

/**
 * Masks the secret values of one agent configuration in text, replacing each with {@link Secret#MASK}: every
 * non-empty value as it is, JSON-escaped, URL-encoded (form and percent encoding), in standard and URL-safe base64,
 * and as the base64 of the HTTP Basic pair {@code text:value} for every non-secret text parameter (the user name is
 * one). Base64 forms are matched without padding, so the padded ones are masked too (their padding stays). Longer
 * forms are masked first. An agent that reports text it does not control (a program's output) may scrub it itself,
 * so that it stays clean when created without the registry. Immutable and thread-safe.
 */
public final class SecretScrubber {

    private static final Base64.Encoder BASE64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Encoder BASE64_URL = Base64.getUrlEncoder().withoutPadding();

    private final List<String> forms;

    private SecretScrubber(Collection<String> forms) {
        this.forms = forms.stream().filter(form -> !form.isEmpty()).distinct()
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    /** A scrubber of the secret values of {@code config}, paired for HTTP Basic with its text values. */
    public static SecretScrubber of(AgentConfig config) {
        Set<String> secrets = new LinkedHashSet<>();
        Set<String> texts = new LinkedHashSet<>();
        for (ParameterDescriptor p : config.parameters()) {
            if (p.secret()) {
                config.secret(p.name()).map(Secret::reveal).ifPresent(secrets::add);
            } else if (p.type() == ParameterType.STRING) {
                config.text(p.name()).ifPresent(texts::add);
            }
        }
        return of(secrets, texts);
    }

    /** A scrubber of {@code secrets}, each also paired for HTTP Basic with every one of {@code users}. */
    static SecretScrubber of(Collection<String> secrets, Collection<String> users) {
        Set<String> forms = new LinkedHashSet<>();
        for (String secret : secrets) {
            if (secret.isEmpty()) {
                continue;
            }
            forms.add(secret);
            forms.add(json(secret));
            String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
            forms.add(url);
            forms.add(url.replace("+", "%20"));
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            forms.add(BASE64.encodeToString(bytes));
            forms.add(BASE64_URL.encodeToString(bytes));
            for (String user : users) {
                forms.add(BASE64.encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8)));
            }
        }
        return new SecretScrubber(forms);
    }

    /** {@code text} with every form of every secret masked; null stays null. */
    public String scrub(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String form : forms) {
            if (out.contains(form)) {
                out = out.replace(form, Secret.MASK);
            }
        }
        return out;
    }

    /** {@code outcome} with its detail, cause and plugs scrubbed; null stays null. */
    FenceOutcome scrub(FenceOutcome outcome) {
        if (outcome == null) {
            return null;
        }
        List<Plug> plugs = outcome.plugs().stream()
                .map(p -> new Plug(scrub(p.id()), scrub(p.alias()), p.power())).toList();
        return new FenceOutcome(outcome.status(), outcome.power(), scrub(outcome.detail()),
                outcome.cause().map(this::scrub), outcome.attempts(), outcome.elapsed(), plugs);
    }

    /**
     * {@code error} itself if no text of it, of its causes or of their suppressed exceptions holds a secret;
     * otherwise a copy whose texts are scrubbed. The copy of an {@link InterruptedException} or a
     * {@link CancellationException} has its type, so that callers still recognize it; any other copy is a
     * {@link ScrubbedException} whose message starts with the original's class name. Copies keep the stack traces.
     */
    Throwable scrub(Throwable error) {
        return copy(error, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /** {@code error} itself, or its scrubbed copy, which is unchecked too. */
    RuntimeException scrub(RuntimeException error) {
        return (RuntimeException) scrub((Throwable) error);
    }

    /** {@code error} itself, or its scrubbed copy, an {@link InterruptedException} too. */
    InterruptedException scrub(InterruptedException error) {
        return (InterruptedException) scrub((Throwable) error);
    }

    private Throwable copy(Throwable error, Set<Throwable> copied) {
        if (error == null || !copied.add(error)) {
            return null;
        }
        if (!holdsSecret(error, Collections.newSetFromMap(new IdentityHashMap<>()))) {
            return error;
        }
        Throwable cause = copy(error.getCause(), copied);
        Throwable copy;
        if (error instanceof InterruptedException) {
            copy = new InterruptedException(scrub(error.getMessage()));
            copy.initCause(cause);
        } else if (error instanceof CancellationException) {
            copy = new CancellationException(scrub(error.getMessage()));
            copy.initCause(cause);
        } else {
            copy = new ScrubbedException(scrub(error.toString()), cause);
        }
        copy.setStackTrace(error.getStackTrace());
        for (Throwable suppressed : error.getSuppressed()) {
            Throwable scrubbed = copy(suppressed, copied);
            if (scrubbed != null) {
                copy.addSuppressed(scrubbed);
            }
        }
        return copy;
    }

    private boolean holdsSecret(Throwable error, Set<Throwable> seen) {
        if (error == null || !seen.add(error)) {
            return false;
        }
        if (holdsSecret(error.toString())) {
            return true;
        }
        for (Throwable suppressed : error.getSuppressed()) {
            if (holdsSecret(suppressed, seen)) {
                return true;
            }
        }
        return holdsSecret(error.getCause(), seen);
    }

    private boolean holdsSecret(String text) {
        return text != null && forms.stream().anyMatch(text::contains);
    }

    /** {@code text} as it appears inside a JSON string. */
    private static String json(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append(c < 0x20 ? String.format(Locale.ROOT, "\\u%04X", (int) c) : String.valueOf(c));
            }
        }
        return out.toString();
    }
}
