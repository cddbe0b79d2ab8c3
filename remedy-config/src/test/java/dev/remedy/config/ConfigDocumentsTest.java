package dev.remedy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ConfigDocuments")
class ConfigDocumentsTest {

    @Test
    @DisplayName("reads YAML whatever the source's name when the format's files are YAML, as strictly as by name")
    void yamlWhateverTheName() {
        assertThat(ConfigDocuments.parseYaml("profiles: [{name: a}]").get("profiles").get(0).get("name").asText())
                .isEqualTo("a");
        assertThat(ConfigDocuments.parseYaml("").isMissingNode()).isTrue();
        assertThatThrownBy(() -> ConfigDocuments.parseYaml("a: 1\na: 2\n")).isInstanceOf(DocumentException.class)
                .hasMessageStartingWith("line 2, column ").hasMessageContaining("Duplicate field 'a'");
        assertThatThrownBy(() -> ConfigDocuments.parseYaml("a: 'hunter2\n")).isInstanceOf(DocumentException.class)
                .hasMessageContaining("YAML syntax error").hasMessageNotContaining("hunter2");
    }
}
