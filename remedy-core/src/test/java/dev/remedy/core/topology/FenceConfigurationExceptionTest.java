package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceConfigurationException")
class FenceConfigurationExceptionTest {

    @Test
    @DisplayName("lists every issue on its own line as file:path: message")
    void message() {
        List<ConfigProblem> issues = new ArrayList<>(List.of(
                ConfigProblem.in("fence.yaml", "templates.bmc.agent", "unknown agent type 'x'"),
                ConfigProblem.in("fence.yaml", "", "line 3, column 1: YAML syntax error")));

        FenceConfigurationException refused = new FenceConfigurationException(issues);
        issues.clear();

        assertThat(refused).isInstanceOf(RemedyException.class);
        assertThat(refused.getMessage()).isEqualTo("""
                invalid fence configuration (2 problems):
                  fence.yaml:templates.bmc.agent: unknown agent type 'x'
                  fence.yaml: line 3, column 1: YAML syntax error""");
        assertThat(refused.issues()).as("a copy").hasSize(2);
    }

    @Test
    @DisplayName("needs at least one issue")
    void notEmpty() {
        assertThatThrownBy(() -> new FenceConfigurationException(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
