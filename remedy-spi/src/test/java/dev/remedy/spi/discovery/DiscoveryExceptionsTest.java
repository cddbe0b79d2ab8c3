package dev.remedy.spi.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.RemedyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Discovery exceptions and failures")
class DiscoveryExceptionsTest {

    @Test
    @DisplayName("UnknownAgentException lists the known types sorted, and says how to fix it")
    void unknownListsKnownTypes() {
        UnknownAgentException e = new UnknownAgentException("ipmi", Set.of("ssh", "kube", "redfish"));

        assertThat(e).isInstanceOf(RemedyException.class);
        assertThat(e.type()).isEqualTo("ipmi");
        assertThat(e.getMessage())
                .contains("unknown agent type 'ipmi'")
                .contains("known types: kube, redfish, ssh")
                .contains("add the jar")
                .doesNotContain("none");
    }

    @Test
    @DisplayName("UnknownAgentException without known types says no agent jar is on the class path")
    void unknownWithNothingKnown() {
        UnknownAgentException e = new UnknownAgentException("ipmi", Set.of());

        assertThat(e.getMessage()).contains("none (no agent jar is on the class path)");
    }

    @Test
    @DisplayName("DuplicateAgentException names every claimant and keeps its own copy of them")
    void duplicateNamesEveryClass() {
        List<String> classes = new ArrayList<>(List.of("com.a.IpmiProvider", "com.b.IpmiProvider"));

        DuplicateAgentException e = new DuplicateAgentException("ipmi", classes);
        classes.clear();

        assertThat(e).isInstanceOf(RemedyException.class);
        assertThat(e.type()).isEqualTo("ipmi");
        assertThat(e.providers()).containsExactly("com.a.IpmiProvider", "com.b.IpmiProvider");
        assertThat(e.getMessage())
                .contains("'ipmi'")
                .contains("2 classes")
                .contains("com.a.IpmiProvider and com.b.IpmiProvider")
                .contains("will not guess");
    }

    @Test
    @DisplayName("DiscoveryFailure refuses missing fields")
    void failureNullChecks() {
        Throwable error = new IllegalStateException("x");

        assertThatThrownBy(() -> new DiscoveryFailure(null, "r", error)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DiscoveryFailure("p", null, error)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DiscoveryFailure("p", "r", null)).isInstanceOf(NullPointerException.class);
        assertThat(new DiscoveryFailure("p", "r", error).error()).isSameAs(error);
    }
}
