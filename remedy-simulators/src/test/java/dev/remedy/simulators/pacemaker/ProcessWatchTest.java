package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The command lines of a process's descendants, sampled while it runs")
class ProcessWatchTest {

    @Test
    @DisplayName("a child's command line is seen with its arguments")
    void seesChildren() throws Exception {
        Process parent = new ProcessBuilder("/bin/sh", "-c", "sleep 0.7 & wait").start();
        try (ProcessWatch watch = ProcessWatch.start(parent.pid())) {
            assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
            watch.close();
            // a sample may also catch the forked child before it runs sleep, with the shell's command line: it is a
            // descendant too
            assertThat(watch.commandLines()).anyMatch(line -> line.endsWith("sleep 0.7"));
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    @DisplayName("the watched process's own command line is not among its descendants'")
    void notTheParent() throws Exception {
        Process parent = new ProcessBuilder("/bin/sleep", "0.5").start();
        try (ProcessWatch watch = ProcessWatch.start(parent.pid())) {
            assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
            watch.close();
            assertThat(watch.commandLines()).isEmpty();
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    @DisplayName("a process that has already exited has no command lines to show")
    void goneProcess() throws Exception {
        Process gone = new ProcessBuilder("/bin/true").start();
        assertThat(gone.waitFor(10, TimeUnit.SECONDS)).isTrue();
        try (ProcessWatch watch = ProcessWatch.start(gone.pid())) {
            watch.close();
            assertThat(watch.commandLines()).isEmpty();
        }
    }
}
