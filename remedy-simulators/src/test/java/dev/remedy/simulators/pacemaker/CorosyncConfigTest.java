package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The corosync.conf of a one-node ring on loopback")
class CorosyncConfigTest {

    @Test
    @DisplayName("one node on 127.0.0.1, knet on the given port, state and log in the directory, no syslog")
    void text() {
        String text = CorosyncConfig.text("fencer-node", 45123, Path.of("/tmp/junit1/corosync"));
        assertThat(text).contains("transport: knet", "mcastport: 45123", "name: fencer-node", "nodeid: 1",
                "ring0_addr: 127.0.0.1", "provider: corosync_votequorum", "state_dir: /tmp/junit1/corosync",
                "logfile: /tmp/junit1/corosync/corosync.log", "to_syslog: no", "to_stderr: no");
        assertThat(text.chars().filter(c -> c == '{').count()).isEqualTo(text.chars().filter(c -> c == '}').count());
    }

    @Test
    @DisplayName("a name, port or directory corosync.conf cannot hold unquoted is refused, by value")
    void refuses() {
        Path dir = Path.of("/tmp/x");
        assertThatThrownBy(() -> CorosyncConfig.text("Node 1", 5405, dir)).hasMessageContaining("'Node 1'");
        assertThatThrownBy(() -> CorosyncConfig.text("n", 0, dir)).hasMessageContaining("port 0");
        assertThatThrownBy(() -> CorosyncConfig.text("n", 70000, dir)).hasMessageContaining("port 70000");
        assertThatThrownBy(() -> CorosyncConfig.text("n", 5405, Path.of("/tmp/a b")))
                .hasMessageContaining("/tmp/a b").hasMessageContaining("unquoted");
        assertThatThrownBy(() -> CorosyncConfig.text("n", 5405, Path.of("relative")))
                .hasMessageContaining("absolute");
    }
}
