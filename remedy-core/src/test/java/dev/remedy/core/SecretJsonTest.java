package dev.remedy.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Jackson, which core uses for configuration and state, never writes a secret's value. */
class SecretJsonTest {

    private static final String VALUE = "correct-horse-battery-staple";

    @Test
    @DisplayName("a Secret written as JSON by a default ObjectMapper never contains its value")
    void secretAsJson() throws Exception {
        ObjectMapper lenient = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
        String json = lenient.writeValueAsString(Map.of("password", Secret.of(VALUE)));
        assertThat(json).doesNotContain(VALUE).contains("password");
        Throwable strict = catchThrowable(() -> new ObjectMapper().writeValueAsString(Secret.of(VALUE)));
        assertThat(String.valueOf(strict) + String.valueOf(json)).doesNotContain(VALUE);
    }

    @Test
    @DisplayName("an AgentConfig written as JSON never contains the secret value")
    void configAndOutcomeAsJson() throws Exception {
        AgentConfig config = AgentConfig.builder("demo", List.of(
                ParameterDescriptor.builder("password", ParameterType.STRING).secret().build()))
                .set("password", VALUE).build();
        ObjectMapper mapper = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
        assertThat(mapper.writeValueAsString(config)).doesNotContain(VALUE);
        assertThat(config.secret("password")).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo(VALUE));
    }
}
