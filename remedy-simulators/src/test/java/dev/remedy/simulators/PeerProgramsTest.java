package dev.remedy.simulators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class PeerProgramsTest {

    @Test
    @DisplayName("an installed program is found on PATH, a missing one is not")
    void find() {
        assertThat(PeerPrograms.find("sh")).hasValueSatisfying(path -> assertThat(path.getFileName()).hasToString("sh"));
        assertThat(PeerPrograms.find("remedy-no-such-peer")).isEmpty();
    }

    @Test
    @DisplayName("a missing peer skips the test on a workstation and fails it in CI, naming the package")
    void missingPeer() {
        Throwable thrown = catchThrowable(() -> PeerPrograms.require("remedy-no-such-peer", "remedy-peer-pkg"));
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        assertThat(thrown).isInstanceOf(ci ? IllegalStateException.class : TestAbortedException.class)
                .hasMessageContaining("apt-get install -y remedy-peer-pkg");
    }
}
