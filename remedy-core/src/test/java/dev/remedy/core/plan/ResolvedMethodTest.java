package dev.remedy.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ResolvedMethod")
class ResolvedMethodTest {

    @Test
    @DisplayName("its configuration is for its agent type: the engine creates the agent from the configuration")
    void configurationMatchesTheAgentType() {
        AgentConfig ipmi = AgentConfig.builder("ipmi", List.of()).build();

        assertThat(new ResolvedMethod("bmc", "ipmi", ipmi).kind()).isEqualTo(FencingKind.POWER);
        assertThatThrownBy(() -> new ResolvedMethod("bmc", "redfish", ipmi))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("method 'bmc' is of agent type 'redfish' but its configuration is for 'ipmi'");
    }
}
