package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.Secret;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * Masks the secret values of one configuration in what an agent prints, as they are and in base64 (standard and
 * URL-safe, without padding), longest first, with {@link Secret#MASK}. The registry masks every agent's texts too;
 * this keeps the agent's own texts clean when it is used without the registry. Immutable.
 */
final class Masker {

    private final List<String> forms;

    private Masker(List<String> forms) {
        this.forms = forms;
    }

    /** A masker of the secrets of {@code config}. */
    static Masker of(AgentConfig config) {
        List<String> forms = new ArrayList<>();
        for (ParameterDescriptor p : config.parameters()) {
            if (p.secret()) {
                config.secret(p.name()).filter(s -> !s.blank()).map(Secret::reveal).ifPresent(value -> {
                    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                    forms.add(value);
                    forms.add(Base64.getEncoder().withoutPadding().encodeToString(bytes));
                    forms.add(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
                });
            }
        }
        forms.sort(Comparator.comparingInt(String::length).reversed());
        return new Masker(List.copyOf(forms));
    }

    /** {@code text} with every secret masked. */
    String mask(String text) {
        String masked = text;
        for (String form : forms) {
            masked = masked.replace(form, Secret.MASK);
        }
        return masked;
    }
}
