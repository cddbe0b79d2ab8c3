package dev.remedy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ConfigFileException")
class ConfigFileExceptionTest {

    /** A kind of file, as the readers' exceptions are. */
    static final class ThingsException extends ConfigFileException {
        ThingsException(List<ConfigProblem> issues, Throwable cause) {
            super(listing("invalid things", issues), issues, cause);
        }
    }

    @Test
    @DisplayName("lists its problems under a title, counted, one per line as file:path: message, and keeps a copy")
    void listing() {
        List<ConfigProblem> issues = new ArrayList<>(List.of(ConfigProblem.in("f.yaml", "a", "m1"),
                ConfigProblem.in("f.yaml", "", "m2")));
        IllegalStateException cause = new IllegalStateException("cause");

        ThingsException two = new ThingsException(issues, cause);
        ThingsException one = new ThingsException(issues.subList(0, 1), null);
        issues.clear();

        assertThat(two).isInstanceOf(RemedyException.class).hasCause(cause)
                .hasMessage("invalid things (2 problems):\n  f.yaml:a: m1\n  f.yaml: m2");
        assertThat(two.issues()).hasSize(2);
        assertThat(one).hasMessage("invalid things (1 problem):\n  f.yaml:a: m1").hasNoCause();
    }

    @Test
    @DisplayName("needs at least one problem")
    void notEmpty() {
        assertThatThrownBy(() -> new ThingsException(List.of(), null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one problem");
    }
}
