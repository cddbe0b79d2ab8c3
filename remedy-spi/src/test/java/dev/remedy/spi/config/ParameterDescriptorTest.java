package dev.remedy.spi.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("ParameterDescriptor and ParameterType")
class ParameterDescriptorTest {

    @Test
    @DisplayName("a builder with only a name and type gives an optional, non-secret parameter without default")
    void builderDefaults() {
        ParameterDescriptor p = ParameterDescriptor.builder("port", ParameterType.INTEGER).build();

        assertThat(p.name()).isEqualTo("port");
        assertThat(p.type()).isEqualTo(ParameterType.INTEGER);
        assertThat(p.required()).isFalse();
        assertThat(p.secret()).isFalse();
        assertThat(p.defaultValue()).isEmpty();
        assertThat(p.description()).isEmpty();
        assertThat(p.fenceAgentsName()).isEmpty();
        assertThat(p.allowedValues()).isEmpty();
    }

    @Test
    @DisplayName("a builder sets every field")
    void builderSetsEverything() {
        ParameterDescriptor p = ParameterDescriptor.builder("method", ParameterType.CHOICE)
                .allowedValues("onoff", "cycle").defaultValue("cycle").description("how to reboot")
                .fenceAgentsName("method").build();

        assertThat(p).isEqualTo(new ParameterDescriptor("method", ParameterType.CHOICE, false, Optional.of("cycle"),
                false, "how to reboot", Optional.of("method"), List.of("onoff", "cycle")));
        assertThatThrownBy(() -> p.allowedValues().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(ParameterDescriptor.builder("password", ParameterType.STRING).required().secret().build())
                .satisfies(s -> {
                    assertThat(s.required()).isTrue();
                    assertThat(s.secret()).isTrue();
                });
    }

    @Test
    @DisplayName("answersTo() matches the name and the fence-agents alias, exactly")
    void answersTo() {
        ParameterDescriptor p = ParameterDescriptor.builder("ip", ParameterType.STRING).fenceAgentsName("ipaddr")
                .build();
        ParameterDescriptor noAlias = ParameterDescriptor.builder("lanplus", ParameterType.BOOLEAN).build();

        assertThat(p.answersTo("ip")).isTrue();
        assertThat(p.answersTo("ipaddr")).isTrue();
        assertThat(p.answersTo("IP")).isFalse();
        assertThat(p.answersTo("ipad")).isFalse();
        assertThat(p.answersTo("")).isFalse();
        assertThat(noAlias.answersTo("lanplus")).isTrue();
        assertThat(noAlias.answersTo("")).isFalse();
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"", "Port", "1port", "_port", "ip-addr", "ip addr", "pört", "port!"})
    @DisplayName("a name that is not lower case with underscores is refused, naming it")
    void badNames(String name) {
        assertThatThrownBy(() -> ParameterDescriptor.builder(name, ParameterType.STRING).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter name '" + name + "'");
    }

    @ParameterizedTest(name = "\"{0}\" is accepted")
    @ValueSource(strings = {"ip", "power_timeout", "a", "key2", "x_1_y"})
    @DisplayName("lower-case names with digits and underscores are accepted")
    void goodNames(String name) {
        assertThat(ParameterDescriptor.builder(name, ParameterType.STRING).build().name()).isEqualTo(name);
    }

    @Test
    @DisplayName("a required parameter cannot have a default")
    void requiredWithDefault() {
        assertThatThrownBy(() -> ParameterDescriptor.builder("port", ParameterType.INTEGER).required()
                .defaultValue("623").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'port' is required and cannot have a default");
    }

    @Test
    @DisplayName("a secret parameter cannot have a default")
    void secretWithDefault() {
        assertThatThrownBy(() -> ParameterDescriptor.builder("password", ParameterType.STRING).secret()
                .defaultValue("admin").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("secret parameter 'password' cannot have a default")
                .hasMessageNotContaining("admin'");
    }

    @Test
    @DisplayName("a CHOICE needs allowed values, and only a CHOICE may have them")
    void choiceNeedsValues() {
        assertThatThrownBy(() -> ParameterDescriptor.builder("method", ParameterType.CHOICE).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'method'")
                .hasMessageContaining("CHOICE");
        assertThatThrownBy(() -> ParameterDescriptor.builder("method", ParameterType.STRING)
                .allowedValues("onoff", "cycle").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CHOICE");
    }

    @ParameterizedTest(name = "{0} default \"{1}\" is refused")
    @CsvSource({
        "INTEGER, abc, 'abc' is not a whole number",
        "INTEGER, 1.5, '1.5' is not a whole number",
        "BOOLEAN, maybe, 'maybe' is not true or false",
        "DURATION, soon, 'soon' is not a duration",
        "DURATION, -5s, '-5s' is not a duration",
        "DURATION, PT-1S, 'PT-1S' is negative",
        "CHOICE, reboot, 'reboot' is not one of [onoff, cycle]"
    })
    @DisplayName("a default that is not a valid value of the type is refused, saying why")
    void badDefaults(ParameterType type, String value, String why) {
        ParameterDescriptor.Builder builder = ParameterDescriptor.builder("p", type).defaultValue(value);
        if (type == ParameterType.CHOICE) {
            builder.allowedValues("onoff", "cycle");
        }

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 'p' has a bad default: ")
                .hasMessageContaining(why);
    }

    @ParameterizedTest(name = "{0} default \"{1}\" is accepted")
    @CsvSource({"STRING, anything at all", "INTEGER, 623", "BOOLEAN, yes", "DURATION, 20s", "DURATION, PT1M",
        "CHOICE, cycle"})
    @DisplayName("a default that is a valid value of the type is accepted")
    void goodDefaults(ParameterType type, String value) {
        ParameterDescriptor.Builder builder = ParameterDescriptor.builder("p", type).defaultValue(value);
        if (type == ParameterType.CHOICE) {
            builder.allowedValues("onoff", "cycle");
        }

        assertThat(builder.build().defaultValue()).contains(value);
    }

    @Test
    @DisplayName("every component but required and secret must be present")
    void nullChecks() {
        Optional<String> none = Optional.empty();
        assertThatThrownBy(() -> new ParameterDescriptor(null, ParameterType.STRING, false, none, false, "", none,
                List.of())).isInstanceOf(NullPointerException.class).hasMessage("name");
        assertThatThrownBy(() -> new ParameterDescriptor("p", null, false, none, false, "", none, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessage("type");
        assertThatThrownBy(() -> new ParameterDescriptor("p", ParameterType.STRING, false, null, false, "", none,
                List.of())).isInstanceOf(NullPointerException.class).hasMessage("defaultValue");
        assertThatThrownBy(() -> new ParameterDescriptor("p", ParameterType.STRING, false, none, false, null, none,
                List.of())).isInstanceOf(NullPointerException.class).hasMessage("description");
        assertThatThrownBy(() -> new ParameterDescriptor("p", ParameterType.STRING, false, none, false, "", null,
                List.of())).isInstanceOf(NullPointerException.class).hasMessage("fenceAgentsName");
        assertThatThrownBy(() -> new ParameterDescriptor("p", ParameterType.STRING, false, none, false, "", none,
                null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    @DisplayName("each type says what a valid value looks like")
    void expected() {
        assertThat(ParameterType.STRING.expected()).isEqualTo("text");
        assertThat(ParameterType.INTEGER.expected()).contains("whole number");
        assertThat(ParameterType.BOOLEAN.expected()).isEqualTo("true or false");
        assertThat(ParameterType.DURATION.expected()).contains("30s").contains("PT30S")
                .contains("at most " + Durations.format(ParameterType.MAX_DURATION));
        assertThat(ParameterType.CHOICE.expected()).contains("allowed values");
    }
}
