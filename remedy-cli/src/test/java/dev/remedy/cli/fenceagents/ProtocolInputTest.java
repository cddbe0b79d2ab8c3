package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.cli.fenceagents.ProtocolInput.Option;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the options of a fence agent call, read as fencing.py reads them")
class ProtocolInputTest {

    private static final Set<String> FLAGS = Set.of("verbose", "quiet", "lanplus");

    @Test
    @DisplayName("stdin: key=value lines; comments, blank lines and surrounding blanks skipped; quotes and '-' dropped")
    void stdinLines() throws IOException {
        ProtocolInput.Parsed parsed = ProtocolInput.stdin(new StringReader(
                "# written by the fencer\n\n  action=off  \nip=\"10.0.0.1\"\npower-timeout=20\nnodename=node1\n"
                        + "password=a=b\nverbose\n"));

        assertThat(parsed.options()).containsExactly(new Option("action", "off", false),
                new Option("ip", "10.0.0.1", false), new Option("power_timeout", "20", false),
                new Option("nodename", "node1", false), new Option("password", "a=b", false),
                new Option("verbose", "", false));
        assertThat(parsed.warnings()).isEmpty();
    }

    @Test
    @DisplayName("stdin over 64 KiB is refused: no device configuration is that long")
    void stdinBounded() {
        String huge = "x=" + "y".repeat(ProtocolInput.MAX_STDIN_CHARS);

        assertThatThrownBy(() -> ProtocolInput.stdin(new StringReader(huge))).isInstanceOf(IOException.class)
                .hasMessageContaining("more than " + ProtocolInput.MAX_STDIN_CHARS);
    }

    @Test
    @DisplayName("command line: --key=value, --key value, -o value, -ovalue, flags alone and stacked")
    void commandLine() {
        ProtocolInput.Parsed parsed = ProtocolInput.commandLine(List.of("--ip=10.0.0.1", "--username", "admin",
                "-o", "status", "-nplug1", "-vq", "--lanplus", "--power-timeout", "20"), FLAGS::contains);

        assertThat(parsed.options()).containsExactly(new Option("ip", "10.0.0.1", true),
                new Option("username", "admin", true), new Option("action", "status", true),
                new Option("plug", "plug1", true), new Option("verbose", "1", true), new Option("quiet", "1", true),
                new Option("lanplus", "1", true), new Option("power_timeout", "20", true));
        assertThat(parsed.warnings()).isEmpty();
    }

    @Test
    @DisplayName("command line: arguments that are not options are ignored with a warning that does not repeat them")
    void unusedArguments() {
        ProtocolInput.Parsed parsed = ProtocolInput.commandLine(List.of("-o", "off", "hunter2", "--", "more"),
                FLAGS::contains);

        assertThat(parsed.options()).containsExactly(new Option("action", "off", true));
        assertThat(parsed.warnings()).singleElement().asString().contains("2 argument(s)").doesNotContain("hunter2");
    }

    @Test
    @DisplayName("command line: an unknown short option is ignored with a warning; an option without its value fails")
    void badOptions() {
        assertThat(ProtocolInput.commandLine(List.of("-Y"), FLAGS::contains).warnings())
                .containsExactly("ignoring unknown option '-Y'");
        assertThatThrownBy(() -> ProtocolInput.commandLine(List.of("--ip"), FLAGS::contains))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("option --ip requires a value");
    }
}
