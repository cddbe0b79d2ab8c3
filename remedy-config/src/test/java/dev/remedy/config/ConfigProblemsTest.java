package dev.remedy.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.config.ConfigProblem;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("ConfigProblems")
class ConfigProblemsTest {

    private final ConfigProblems problems = new ConfigProblems("f.yaml");

    static ConfigNode yaml(String text) {
        return ConfigDocuments.parse(text, "test.yaml");
    }

    private List<String> texts() {
        return problems.list().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    @DisplayName("records each problem with the document's source and its path, in the order found")
    void records() {
        problems.add("a.b", "is wrong; do this");
        problems.add(new ConfigProblem("port", "'x' is not a whole number", "give 623").at("f.yaml", "n.port"));

        assertThat(problems.source()).isEqualTo("f.yaml");
        assertThat(problems.isEmpty()).isFalse();
        assertThat(texts()).containsExactly("f.yaml:a.b: is wrong; do this",
                "f.yaml:n.port: 'x' is not a whole number; give 623");
    }

    @Test
    @DisplayName("takes a mapping as document, and refuses an empty one or a list with what to give")
    void document() {
        assertThat(problems.document(yaml("a: 1"), "a", "the key a")).isPresent();
        assertThat(problems.document(yaml("# nothing"), "a and b", "the keys a, b")).isEmpty();
        assertThat(problems.document(yaml("[1]"), "a and b", "the keys a, b")).isEmpty();

        assertThat(texts()).containsExactly("f.yaml: the document is empty; give a and b",
                "f.yaml: the document must be a mapping with the keys a, b, not a list");
    }

    @Test
    @DisplayName("reports every unknown key with its path and the nearest known one, in the reader's own words")
    void keys() {
        ConfigNode node = yaml("{timout: 1, colour: red, ok: 1, remedy7: x}");

        problems.checkKeys(node, "step", List.of("timeout", "ok"));
        problems.checkKeys(node, "", key -> key.equals("ok") || key.startsWith("remedy"), List.of("ok", "remedy1"));
        ConfigProblems scenario = new ConfigProblems("s.yaml", "is not a key here", "the keys are");
        scenario.checkKeys(yaml("{run_fro: 1}"), "", List.of("run_for"));

        assertThat(texts()).containsExactly(
                "f.yaml:step.timout: is not a known key; did you mean 'timeout'? allowed here: timeout, ok",
                "f.yaml:step.colour: is not a known key; allowed here: timeout, ok",
                "f.yaml:step.remedy7: is not a known key; allowed here: timeout, ok",
                "f.yaml:timout: is not a known key; allowed here: ok, remedy1",
                "f.yaml:colour: is not a known key; allowed here: ok, remedy1");
        assertThat(scenario.list()).extracting(ConfigProblem::toString)
                .containsExactly("s.yaml:run_fro: is not a key here; did you mean 'run_for'? the keys are: run_for");
    }

    @Test
    @DisplayName("takes a mapping of known keys, reporting the others, or says what shape was expected")
    void mappingWith() {
        ConfigNode doc = yaml("{item: {type: Ready, colour: red}, text: x}");

        assertThat(problems.mappingWith(doc.get("item"), "item", "{type, status}", List.of("type", "status")))
                .isPresent();
        assertThat(problems.mappingWith(doc.get("text"), "text", "{type, status}", List.of("type", "status")))
                .isEmpty();

        assertThat(texts()).containsExactly("f.yaml:item.colour: is not a known key; allowed here: type, status",
                "f.yaml:text: must be a mapping {type, status}, not text");
    }

    @Test
    @DisplayName("reads mappings and non-empty lists, and says what was found instead")
    void structure() {
        ConfigNode doc = yaml("{m: {a: 1}, l: [1], e: [], t: text}");

        assertThat(problems.mapping(doc.get("m"), "m", true, "what m holds")).isPresent();
        assertThat(problems.mapping(doc.get("x"), "x", false, "what x holds")).isEmpty();
        assertThat(problems.list(doc.get("l"), "l", "the items")).hasValueSatisfying(l -> assertThat(l).hasSize(1));
        assertThat(problems.isEmpty()).isTrue();
        assertThat(problems.mapping(doc.get("x"), "x", true, "what x holds")).isEmpty();
        assertThat(problems.mapping(doc.get("t"), "t", true, "what t holds")).isEmpty();
        assertThat(problems.list(doc.get("e"), "e", "the items")).isEmpty();
        assertThat(problems.list(doc.get("y"), "y", "the items")).isEmpty();
        assertThat(problems.list(doc.get("t"), "t", "the items")).isEmpty();

        assertThat(texts()).containsExactly("f.yaml:x: is missing; give what x holds",
                "f.yaml:t: must be a mapping (what t holds), not text",
                "f.yaml:e: is empty; give the items",
                "f.yaml:y: is missing; give the items",
                "f.yaml:t: must be a list (the items), not text");
    }

    @Test
    @DisplayName("reads text (numbers too) and single values, never quoting a value that is not one")
    void scalars() {
        ConfigNode doc = yaml("{t: name, n: 5, b: true, blank: ' ', m: {secret: x}, nil: }");

        assertThat(problems.text(doc.get("t"), "t", "a name")).hasValue("name");
        assertThat(problems.text(doc.get("n"), "n", "a name")).hasValue("5");
        assertThat(problems.scalar(doc.get("b"), "b")).hasValue("true");
        assertThat(problems.scalar(doc.get("blank"), "blank")).hasValue(" ");
        assertThat(problems.isEmpty()).isTrue();
        assertThat(problems.text(doc.get("x"), "x", "a name")).isEmpty();
        assertThat(problems.text(doc.get("b"), "b", "a name")).isEmpty();
        assertThat(problems.text(doc.get("blank"), "blank", "a name")).isEmpty();
        assertThat(problems.scalar(doc.get("m"), "m")).isEmpty();
        assertThat(problems.scalar(doc.get("nil"), "nil")).isEmpty();

        assertThat(texts()).containsExactly("f.yaml:x: is missing; give a name",
                "f.yaml:b: must be non-blank text, not true/false; give a name",
                "f.yaml:blank: must be non-blank text, not blank text; give a name",
                "f.yaml:m: must be a single value (text, a number or true/false), not a mapping",
                "f.yaml:nil: has no value; give one (write \"\" for empty text)")
                .noneMatch(text -> text.contains("secret"));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"30s, PT30S", "500ms, PT0.5S", "2m, PT2M", "1h, PT1H", "1d, PT24H", "20, PT20S", "PT5M, PT5M",
        "0s, PT0S"})
    @DisplayName("reads a duration in every form an agent's parameter takes")
    void durations(String text, Duration expected) {
        assertThat(problems.duration(yaml("d: " + text).get("d"), "d", "a delay", Duration.ofDays(1)))
                .hasValue(expected);
        assertThat(problems.isEmpty()).isTrue();
    }

    @Test
    @DisplayName("refuses a missing, malformed, negative, overlong or non-scalar duration, saying how to write one")
    void badDurations() {
        ConfigNode doc = yaml("{soon: soon, negative: -5s, long: 25h, overflow: P999999999999D, flag: true, "
                + "list: [1]}");
        Duration day = Duration.ofDays(1);

        problems.duration(doc.get("absent"), "absent", "the delay", day);
        problems.duration(doc.get("soon"), "soon", "the delay", day);
        problems.duration(doc.get("negative"), "negative", "the delay", day);
        problems.duration(doc.get("long"), "long", "the delay", day);
        problems.duration(doc.get("overflow"), "overflow", "the delay", day);
        problems.duration(doc.get("flag"), "flag", "the delay", day);
        problems.duration(doc.get("list"), "list", "the delay", day);

        String give = "a duration of at most 1d, such as 30s, 5m, 1h or PT5M";
        assertThat(texts()).containsExactly(
                "f.yaml:absent: is missing; give the delay as " + give,
                "f.yaml:soon: 'soon' is not a duration; give " + give,
                "f.yaml:negative: '-5s' is not a duration; give " + give,
                "f.yaml:long: '25h' is longer than 1d; give " + give,
                "f.yaml:overflow: 'P999999999999D' is longer than 1d; give " + give,
                "f.yaml:flag: must be " + give + ", not true/false",
                "f.yaml:list: must be " + give + ", not a list");
    }

    @Test
    @DisplayName("reads whole numbers and flags, saying which values fit")
    void numbersAndFlags() {
        ConfigNode doc = yaml("{n: 3, big: 9999999999, text: two, flag: true, quoted: 'false'}");

        assertThat(problems.wholeNumber(doc.get("n"), "n", "1 or more")).hasValue(3);
        assertThat(problems.flag(doc.get("flag"), "flag")).hasValue(true);
        assertThat(problems.isEmpty()).isTrue();
        assertThat(problems.wholeNumber(doc.get("big"), "big", "1 or more")).isEmpty();
        assertThat(problems.wholeNumber(doc.get("text"), "text", "0 or more")).isEmpty();
        assertThat(problems.flag(doc.get("quoted"), "quoted")).isEmpty();

        assertThat(texts()).containsExactly("f.yaml:big: is 9999999999, too large; give a whole number, 1 or more",
                "f.yaml:text: must be a whole number, 0 or more, not text",
                "f.yaml:quoted: must be true or false, not text");
    }
}
