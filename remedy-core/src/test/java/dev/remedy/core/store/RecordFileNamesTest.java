package dev.remedy.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Node names map to record file names that are safe, lower case and never shared. */
class RecordFileNamesTest {

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "worker-1.example.com | worker-1.example.com.json",
        "Worker-1             | _57orker-1.json",
        "a/b                  | a_2fb.json",
        "a\\b                 | a_5cb.json",
        "../etc/passwd        | .._2fetc_2fpasswd.json",
        "..                   | ...json",
        "_                    | _5f.json",
        "\"\"                 | _.json",
        "con                  | _63on.json",
        "com1.example         | _63om1.example.json",
        "console              | console.json",
        "nöde                 | n_f6de.json",
        "n€                   | n_u20ac.json",
    })
    @DisplayName("a node name is kept where it is plain and escaped elsewhere")
    void encoding(String node, String file) {
        assertThat(RecordFileNames.of(node)).isEqualTo(file);
    }

    @Test
    @DisplayName("every plain encoding decodes back to its node, so different names never share a file")
    void injective() {
        List<String> nodes = List.of("a", "A", "_41", "_", "", "a_2fb", "a/b", "?", "\uD800", "\uDC00\uD800",
                "con", "_63on", "nul.", "x~y", "ü", "_u00fc", "\u00fc\u00fc", "\u0000", "worker-1");
        Map<String, String> byFile = new HashMap<>();
        for (String node : nodes) {
            String file = RecordFileNames.of(node);
            assertThat(byFile.put(file, node)).as("file %s of '%s'", file, node).isNull();
            assertThat(decode(file)).isEqualTo(node);
        }
    }

    @Test
    @DisplayName("a name whose encoding is too long is cut and hashed, stays short, and differs by its last character")
    void longNames() {
        String base = "n".repeat(RecordFileNames.MAX_PLAIN);
        String atLimit = RecordFileNames.of(base);
        String overA = RecordFileNames.of(base + "a");
        String overB = RecordFileNames.of(base + "b");

        assertThat(atLimit).doesNotContain("~").hasSize(RecordFileNames.MAX_PLAIN + 5);
        assertThat(overA).contains("~").startsWith("n".repeat(64)).hasSizeLessThan(atLimit.length());
        assertThat(overA).isNotEqualTo(overB);
        assertThat(RecordFileNames.of("ü".repeat(200))).hasSizeLessThanOrEqualTo(160).matches("[a-z0-9._~-]+");
    }

    @Test
    @DisplayName("temp files are recognised and traced back to their record file, and no record file looks like one")
    void tempNames() {
        String file = RecordFileNames.of("a.json.b");
        String temp = RecordFileNames.tempPrefix(file) + "12345" + RecordFileNames.TEMP_SUFFIX;

        assertThat(RecordFileNames.isTemp(temp)).isTrue();
        assertThat(RecordFileNames.recordOfTemp(temp)).isEqualTo(file);
        assertThat(RecordFileNames.isTemp(RecordFileNames.of(".x.json.1.tmp"))).isFalse();
        assertThat(RecordFileNames.isTemp(file)).isFalse();
    }

    /** Decodes a plain (not hashed) encoding; the inverse that proves the encoding injective. */
    private static String decode(String file) {
        String encoded = file.substring(0, file.length() - RecordFileNames.SUFFIX.length());
        if (encoded.equals("_")) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c != '_') {
                out.append(c);
            } else if (encoded.charAt(i + 1) == 'u') {
                out.append((char) Integer.parseInt(encoded.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                out.append((char) Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
                i += 2;
            }
        }
        return out.toString();
    }
}
