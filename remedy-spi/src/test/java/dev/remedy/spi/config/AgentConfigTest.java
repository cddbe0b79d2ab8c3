package dev.remedy.spi.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.spi.RemedyException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("AgentConfig")
class AgentConfigTest {

    private static final String SECRET = "hunter2-correct-horse";

    /** Parameters shaped like an IPMI agent's. */
    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ipaddr")
                    .description("the BMC address").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).required().fenceAgentsName("login").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).required().secret()
                    .fenceAgentsName("passwd").build(),
            ParameterDescriptor.builder("port", ParameterType.INTEGER).defaultValue("623").fenceAgentsName("ipport")
                    .build(),
            ParameterDescriptor.builder("lanplus", ParameterType.BOOLEAN).defaultValue("true").build(),
            ParameterDescriptor.builder("power_timeout", ParameterType.DURATION).defaultValue("20s").build(),
            ParameterDescriptor.builder("login_timeout", ParameterType.DURATION).build(),
            ParameterDescriptor.builder("method", ParameterType.CHOICE).allowedValues("onoff", "cycle")
                    .defaultValue("onoff").build(),
            ParameterDescriptor.builder("cipher", ParameterType.INTEGER).build(),
            ParameterDescriptor.builder("key_passphrase", ParameterType.STRING).secret().build());

    private static AgentConfig.Builder builder() {
        return AgentConfig.builder("ipmi", PARAMETERS);
    }

    /** A valid configuration: every required parameter given. */
    private static AgentConfig.Builder valid() {
        return builder().set("ip", "10.0.0.1").set("username", "admin").set("password", SECRET);
    }

    private static AgentConfig with(String key, String value) {
        return valid().set(key, value).build();
    }

    @Nested
    @DisplayName("keys")
    class Keys {

        @Test
        @DisplayName("a value can be given by remedy's name or by the fence-agents alias")
        void nameOrAlias() {
            AgentConfig config = builder().set("ipaddr", "10.0.0.1").set("login", "admin").set("ipport", "1623")
                    .set("lanplus", "no").build();

            assertThat(config.agentType()).isEqualTo("ipmi");
            assertThat(config.isSet("ip")).isTrue();
            assertThat(config.isSet("username")).isTrue();
            assertThat(config.string("ip")).isEqualTo("10.0.0.1");
            assertThat(config.string("username")).isEqualTo("admin");
            assertThat(config.integer("port")).isEqualTo(1623);
            assertThat(config.bool("lanplus")).isFalse();
            assertThat(config.validate()).extracting(ConfigProblem::path).doesNotContain("ipaddr", "login");
        }

        @Test
        @DisplayName("a later value replaces an earlier one, whether given by name or alias")
        void lastValueWins() {
            AgentConfig config = valid().set("port", "1000").set("ipport", "2000").build();
            AgentConfig reversed = valid().set("ipport", "2000").set("port", "1000").build();

            assertThat(config.integer("port")).isEqualTo(2000);
            assertThat(reversed.integer("port")).isEqualTo(1000);
        }

        @Test
        @DisplayName("setAll() sets every entry as set() does, aliases included")
        void setAll() {
            Map<String, String> entries = new LinkedHashMap<>();
            entries.put("ipaddr", "10.0.0.2");
            entries.put("username", "root");
            entries.put("passwd", SECRET);

            AgentConfig config = builder().setAll(entries).build();

            assertThat(config.string("ip")).isEqualTo("10.0.0.2");
            assertThat(config.string("username")).isEqualTo("root");
            assertThat(config.secret("password")).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo(SECRET));
            assertThat(config.validate()).isEmpty();
        }

        @Test
        @DisplayName("isSet() is false for parameters left at their default")
        void isSetIgnoresDefaults() {
            AgentConfig config = valid().build();

            assertThat(config.isSet("port")).isFalse();
            assertThat(config.integer("port")).isEqualTo(623);
            assertThat(config.isSet("password")).isTrue();
            assertThat(config.isSet("key_passphrase")).isFalse();
        }

        @Test
        @DisplayName("unknown keys are kept, not rejected, until validate()")
        void unknownKeysAreKept() {
            AgentConfig config = valid().set("colour", "blue").build();

            assertThat(config.isSet("colour")).isTrue();
            assertThat(config.validate()).singleElement().satisfies(p -> assertThat(p.path()).isEqualTo("colour"));
        }

        @Test
        @DisplayName("a null key or value is refused")
        void nulls() {
            assertThatThrownBy(() -> builder().set(null, "x")).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> builder().set("ip", null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("ip");
            assertThatThrownBy(() -> AgentConfig.builder(null, PARAMETERS)).isInstanceOf(NullPointerException.class);
        }

        @Test
        @DisplayName("a getter for a name the agent does not have is a programming error")
        void unknownGetter() {
            AgentConfig config = valid().build();

            assertThatThrownBy(() -> config.text("colour"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'ipmi'").hasMessageContaining("'colour'");
            assertThatThrownBy(() -> config.integer("colour")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> config.secret("colour")).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        @DisplayName("the built configuration does not change when the builder or its input does")
        void immutable() {
            Map<String, String> entries = new LinkedHashMap<>(Map.of("ip", "10.0.0.1"));
            AgentConfig.Builder builder = builder().setAll(entries);
            AgentConfig config = builder.build();

            builder.set("ip", "10.9.9.9").set("port", "1");
            entries.put("ip", "10.8.8.8");

            assertThat(config.string("ip")).isEqualTo("10.0.0.1");
            assertThat(config.isSet("port")).isFalse();
            assertThat(config.parameters()).isEqualTo(PARAMETERS);
            assertThatThrownBy(() -> config.parameters().clear()).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Nested
    @DisplayName("typed getters")
    class Getters {

        @Test
        @DisplayName("defaults apply when nothing is given")
        void defaults() {
            AgentConfig config = valid().build();

            assertThat(config.integer("port")).isEqualTo(623);
            assertThat(config.bool("lanplus")).isTrue();
            assertThat(config.duration("power_timeout")).isEqualTo(Duration.ofSeconds(20));
            assertThat(config.string("method")).isEqualTo("onoff");
            assertThat(config.text("method")).contains("onoff");
        }

        @Test
        @DisplayName("given values replace defaults")
        void givenValues() {
            AgentConfig config = valid().set("port", " 1623 ").set("lanplus", "off").set("power_timeout", "90s")
                    .set("method", "cycle").set("cipher", "17").build();

            assertThat(config.integer("port")).isEqualTo(1623);
            assertThat(config.bool("lanplus")).isFalse();
            assertThat(config.duration("power_timeout")).isEqualTo(Duration.ofSeconds(90));
            assertThat(config.string("method")).isEqualTo("cycle");
            assertThat(config.integer("cipher")).isEqualTo(17);
        }

        @Test
        @DisplayName("an optional parameter without default reads as empty text")
        void optionalWithoutDefault() {
            AgentConfig config = valid().build();

            assertThat(config.text("cipher")).isEmpty();
            assertThat(config.text("login_timeout")).isEmpty();
        }

        @Test
        @DisplayName("reading a missing value with a typed getter throws, naming the parameter")
        void missingValue() {
            AgentConfig config = builder().build();

            InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                    () -> config.string("ip"));
            assertThat(e).isNotNull();
            assertThat(e.agentType()).isEqualTo("ipmi");
            assertThat(e.problems()).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("ip");
                assertThat(p.problem()).contains("required");
            });
            assertThatThrownBy(() -> config.integer("cipher"))
                    .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("'cipher'");
            assertThatThrownBy(() -> config.duration("login_timeout"))
                    .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("'login_timeout'");
        }

        @Test
        @DisplayName("a malformed value read with a typed getter throws, naming the parameter and the value")
        void malformedValue() {
            AgentConfig config = with("port", "six-two-three");

            InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                    () -> config.integer("port"));
            assertThat(e).isNotNull();
            assertThat(e.problems()).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("port");
                assertThat(p.problem()).contains("'six-two-three'").contains("whole number");
                assertThat(p.hint()).contains(ParameterType.INTEGER.expected());
            });
        }

        @ParameterizedTest(name = "\"{0}\" is {1}")
        @CsvSource({
            "true, true", "false, false", "yes, true", "no, false", "on, true", "off, false", "1, true", "0, false",
            "TRUE, true", "No, false", "' On ', true", "OFF, false"
        })
        @DisplayName("booleans accept true/false, yes/no, on/off and 1/0 in any case")
        void booleans(String text, boolean expected) {
            AgentConfig config = with("lanplus", text);

            assertThat(config.bool("lanplus")).isEqualTo(expected);
            assertThat(config.validate()).isEmpty();
        }

        @ParameterizedTest(name = "\"{0}\" is refused")
        @ValueSource(strings = {"maybe", "2", "", "enabled", "y", "t"})
        @DisplayName("anything else is not a boolean, and the message names the value")
        void badBooleans(String text) {
            AgentConfig config = with("lanplus", text);

            assertThatThrownBy(() -> config.bool("lanplus"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("'" + text + "' is not true or false");
            assertThat(config.validate()).singleElement()
                    .satisfies(p -> assertThat(p.problem()).contains("'" + text + "'"));
        }

        @ParameterizedTest(name = "\"{0}\" is refused")
        @ValueSource(strings = {"abc", "", "6.5", "1e3", "99999999999", "0x10"})
        @DisplayName("integers must be whole numbers in range, and the message names the value")
        void badIntegers(String text) {
            AgentConfig config = with("port", text);

            assertThatThrownBy(() -> config.integer("port"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("'" + text + "' is not a whole number");
        }

        @Test
        @DisplayName("negative and signed integers are whole numbers")
        void signedIntegers() {
            assertThat(with("cipher", "-3").integer("cipher")).isEqualTo(-3);
            assertThat(with("cipher", "+3").integer("cipher")).isEqualTo(3);
        }
    }

    @Nested
    @DisplayName("durations")
    class Durations {

        @ParameterizedTest(name = "\"{0}\" is {1} ms")
        @CsvSource({
            "30s, 30000",
            "500ms, 500",
            "2m, 120000",
            "1h, 3600000",
            "0.01d, 864000",
            "1.5s, 1500",
            "20, 20000",
            "0, 0",
            "PT30S, 30000",
            "pt1m, 60000",
            "PT0.25S, 250",
            "' 45 s ', 45000",
            "10 ms, 10",
            "3S, 3000"
        })
        @DisplayName("short forms, plain seconds and ISO-8601 are accepted")
        void accepted(String text, long millis) {
            AgentConfig config = with("power_timeout", text);

            assertThat(config.duration("power_timeout")).isEqualTo(Duration.ofMillis(millis));
            assertThat(config.validate()).isEmpty();
        }

        @ParameterizedTest(name = "\"{0}\" is refused")
        @ValueSource(strings = {"abc", "-5s", "P", "PT", "Pgarbage", "", "s", "5 sec", "1e3s", "1,5s", ".5s", "5y"})
        @DisplayName("malformed durations are refused with a message that names the value")
        void refused(String text) {
            AgentConfig config = with("power_timeout", text);

            InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                    () -> config.duration("power_timeout"));
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).contains("'power_timeout'").contains("'" + text + "'");
            assertThat(e.problems()).singleElement().satisfies(p -> {
                assertThat(p.problem()).contains("'" + text + "'");
                assertThat(p.hint()).contains(ParameterType.DURATION.expected());
            });
            assertThat(config.validate()).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("power_timeout");
                assertThat(p.problem()).contains("'" + text + "'");
            });
        }

        @ParameterizedTest(name = "\"{0}\" is refused, naming the limit")
        @ValueSource(strings = {"P999999999999D", "PT2562047788015215H", "2h", "PT1H0.001S", "1d"})
        @DisplayName("a duration longer than an hour, more than any agent waits within one action, is refused with the limit")
        void longerThanTheLimit(String text) {
            AgentConfig config = with("power_timeout", text);

            assertThat(config.validate()).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("power_timeout");
                assertThat(p.problem()).contains("'" + text + "'").contains("longer than 1h");
                assertThat(p.hint()).contains("at most 1h");
            });
            assertThatThrownBy(() -> config.duration("power_timeout"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("longer than 1h");
        }

        @Test
        @DisplayName("exactly an hour is accepted")
        void anHour() {
            assertThat(with("power_timeout", "1h").duration("power_timeout")).isEqualTo(Duration.ofHours(1));
            assertThat(with("power_timeout", "PT60M").validate()).isEmpty();
        }

        @Test
        @DisplayName("a negative ISO-8601 duration is refused as negative")
        void negativeIso() {
            AgentConfig config = with("power_timeout", "PT-5S");

            assertThatThrownBy(() -> config.duration("power_timeout"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("'PT-5S' is negative");
        }

        @Test
        @DisplayName("an absurdly long duration is refused instead of overflowing")
        void tooLong() {
            AgentConfig shortForm = with("power_timeout", "99999999999999999999d");
            AgentConfig iso = with("power_timeout", "PT99999999999999999999H");

            assertThatThrownBy(() -> shortForm.duration("power_timeout"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("'99999999999999999999d' is longer than 1h");
            assertThatThrownBy(() -> iso.duration("power_timeout"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("'PT99999999999999999999H' is longer than 1h");
        }
    }

    @Nested
    @DisplayName("choices")
    class Choices {

        @Test
        @DisplayName("a CHOICE accepts exactly its allowed values")
        void allowed() {
            assertThat(with("method", "cycle").validate()).isEmpty();
            assertThat(with("method", "cycle").string("method")).isEqualTo("cycle");
        }

        @ParameterizedTest(name = "\"{0}\" is refused")
        @ValueSource(strings = {"reboot", "CYCLE", " cycle", ""})
        @DisplayName("a CHOICE refuses anything else and lists the allowed values")
        void refused(String text) {
            assertThat(with("method", text).validate()).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("method");
                assertThat(p.problem()).isEqualTo("'" + text + "' is not one of [onoff, cycle]");
                assertThat(p.hint()).contains("onoff, cycle");
            });
        }
    }

    @Nested
    @DisplayName("validation")
    class Validation {

        @Test
        @DisplayName("a complete configuration has no problems and requireValid() returns it")
        void valid() {
            AgentConfig config = AgentConfigTest.valid().build();

            assertThat(config.validate()).isEmpty();
            assertThat(config.requireValid()).isSameAs(config);
        }

        @Test
        @DisplayName("validate() reports every unknown key, missing parameter and malformed value at once")
        void allProblemsAtOnce() {
            AgentConfig config = builder()
                    .set("usernme", "admin")
                    .set("colour", "blue")
                    .set("port", "abc")
                    .set("lanplus", "maybe")
                    .set("power_timeout", "-5s")
                    .set("method", "reboot")
                    .build();

            List<ConfigProblem> problems = config.validate();

            assertThat(problems).extracting(ConfigProblem::path).containsExactly(
                    "colour", "usernme", "ip", "username", "password", "port", "lanplus", "power_timeout", "method");
            assertThat(problems.get(0).problem()).isEqualTo("is not a parameter of agent 'ipmi'");
            assertThat(problems.get(0).hint()).doesNotContain("did you mean").contains("known parameters: ip, username");
            assertThat(problems.get(1).hint()).startsWith("did you mean 'username'? known parameters: ");
            assertThat(problems.get(2).problem()).isEqualTo("is required but was not given");
            assertThat(problems.get(2).hint()).contains("text").contains("the BMC address");
            assertThat(problems.get(3).problem()).contains("required");
            assertThat(problems.get(4).problem()).contains("required");
            assertThat(problems.get(5).problem()).contains("'abc'");
            assertThat(problems.get(6).problem()).contains("'maybe'");
            assertThat(problems.get(7).problem()).contains("'-5s'");
            assertThat(problems.get(8).problem()).contains("'reboot'");
            assertThatThrownBy(() -> problems.add(problems.get(0))).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        @DisplayName("requireValid() throws an exception whose message and problems name every problem")
        void requireValidNamesEveryProblem() {
            AgentConfig config = builder()
                    .set("usernme", "admin")
                    .set("port", "abc")
                    .set("power_timeout", "-5s")
                    .build();
            List<ConfigProblem> expected = config.validate();

            InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                    config::requireValid);

            assertThat(e).isNotNull().isInstanceOf(RemedyException.class);
            assertThat(e.agentType()).isEqualTo("ipmi");
            assertThat(e.problems()).isEqualTo(expected).hasSize(6);
            assertThat(e.getMessage())
                    .startsWith("invalid configuration for agent 'ipmi' (6 problems): ")
                    .contains("parameter 'usernme'").contains("did you mean 'username'")
                    .contains("parameter 'ip'").contains("parameter 'username'").contains("parameter 'password'")
                    .contains("parameter 'port'").contains("'abc'")
                    .contains("parameter 'power_timeout'").contains("'-5s'");
            for (ConfigProblem problem : expected) {
                assertThat(e.getMessage()).contains(problem.toString());
            }
        }

        @Test
        @DisplayName("a typo is matched to the nearest parameter name only when it is close")
        void suggestions() {
            assertThat(hintFor("pasword")).startsWith("did you mean 'password'?");
            assertThat(hintFor("ipp")).startsWith("did you mean 'ip'?");
            assertThat(hintFor("powertimeout")).startsWith("did you mean 'power_timeout'?");
            assertThat(hintFor("lanplu")).startsWith("did you mean 'lanplus'?");
            assertThat(hintFor("zzzzzz")).startsWith("known parameters: ");
            assertThat(hintFor("zzzzzz")).endsWith("known parameters: ip, username, password, port, lanplus, "
                    + "power_timeout, login_timeout, method, cipher, key_passphrase");
        }

        private String hintFor(String typo) {
            return AgentConfigTest.valid().set(typo, "x").build().validate().get(0).hint();
        }

        @Test
        @DisplayName("a required secret given through secret() or set() counts as given")
        void requiredSecretGiven() {
            AgentConfig viaSecret = builder().set("ip", "h").set("username", "u")
                    .secret("password", Secret.of(SECRET)).build();

            assertThat(viaSecret.validate()).isEmpty();
            assertThat(AgentConfigTest.valid().build().validate()).isEmpty();
        }
    }

    @Nested
    @DisplayName("secrets")
    class Secrets {

        @Test
        @DisplayName("a value set() for a secret parameter is stored as a Secret, by name or by alias")
        void storedAsSecret() {
            AgentConfig byName = builder().set("password", SECRET).build();
            AgentConfig byAlias = builder().set("passwd", SECRET).build();

            assertThat(byName.secret("password")).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo(SECRET));
            assertThat(byAlias.secret("password")).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo(SECRET));
            assertThat(byAlias.isSet("password")).isTrue();
            assertThat(byName.secret("key_passphrase")).isEmpty();
        }

        @Test
        @DisplayName("Builder.secret() sets a secret parameter by name or alias, and refuses anything else")
        void builderSecret() {
            Secret secret = Secret.of(SECRET);
            AgentConfig config = builder().secret("passwd", secret).build();

            assertThat(config.secret("password")).containsSame(secret);
            assertThatThrownBy(() -> builder().secret("ip", Secret.of("x")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no secret parameter 'ip'");
            assertThatThrownBy(() -> builder().secret("colour", Secret.of("x")))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> builder().secret("password", null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        @DisplayName("isSecret() tells secret parameters, by name or alias, from the rest")
        void isSecret() {
            AgentConfig.Builder builder = builder();

            assertThat(builder.isSecret("password")).isTrue();
            assertThat(builder.isSecret("passwd")).isTrue();
            assertThat(builder.isSecret("key_passphrase")).isTrue();
            assertThat(builder.isSecret("ip")).isFalse();
            assertThat(builder.isSecret("colour")).isFalse();
        }

        @Test
        @DisplayName("text() on a secret parameter and secret() on a plain one are programming errors")
        void wrongGetter() {
            AgentConfig config = AgentConfigTest.valid().build();

            assertThatThrownBy(() -> config.text("password"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'password' is secret");
            assertThatThrownBy(() -> config.string("password")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> config.secret("ip"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'ip' is not secret");
        }

        @Test
        @DisplayName("toString() shows values in parameter order, masks secrets and hides the values of unknown keys")
        void toStringMasks() {
            AgentConfig config = builder().set("zeta", "1").set("passwd", SECRET).set("port", "1623")
                    .set("ipaddr", "10.0.0.1").secret("key_passphrase", Secret.of(SECRET + "-2")).set("alpha", "2")
                    .build();

            assertThat(config).hasToString(
                    "ipmi{ip=10.0.0.1, password=******, port=1623, key_passphrase=******, "
                            + "alpha=<not a parameter, value hidden>, zeta=<not a parameter, value hidden>}");
            assertThat(config.toString()).doesNotContain(SECRET).doesNotContain("hunter2");
            AgentConfig misspelled = builder().set("pasword", SECRET).build();
            assertThat(misspelled.toString()).contains("pasword").doesNotContain(SECRET);
        }

        @Test
        @DisplayName("a secret never appears in problems or in the exception, even when everything else is wrong")
        void secretNeverInProblems() {
            AgentConfig config = builder()
                    .set("passwd", SECRET)
                    .set("key_passphrase", SECRET)
                    .set("port", "abc")
                    .set("usernme", "admin")
                    .set("power_timeout", "soon")
                    .build();

            List<ConfigProblem> problems = config.validate();
            InvalidConfigurationException e = catchThrowableOfType(InvalidConfigurationException.class,
                    config::requireValid);

            assertThat(problems).hasSize(5);
            assertThat(problems.toString()).doesNotContain(SECRET).doesNotContain("hunter2");
            assertThat(problems).allSatisfy(p -> {
                assertThat(p.toString()).doesNotContain("hunter2");
                assertThat(p.path() + p.problem() + p.hint()).doesNotContain("hunter2");
            });
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).doesNotContain("hunter2");
            assertThat(e.toString()).doesNotContain("hunter2");
            assertThat(config.toString()).doesNotContain("hunter2").contains("password=******");
            assertThatThrownBy(() -> config.duration("power_timeout"))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageNotContaining("hunter2");
        }
    }
}
