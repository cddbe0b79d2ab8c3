package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("what the agent server and a launcher say to each other")
class ServerFramingTest {

    private static ServerRequest read(String text) throws IOException {
        return ServerRequest.read(new BufferedReader(new StringReader(text)));
    }

    @Test
    @DisplayName("a request: token, type, arguments and stdin lines in order, up to 'end'")
    void request() throws IOException {
        ServerRequest request = read("token t0k3n\ntype ipmi\narg -o\narg status\nin ip=10.0.0.1\nin \nin a b\nend\n"
                + "ignored after end\n");

        assertThat(request.token()).isEqualTo("t0k3n");
        assertThat(request.type()).isEqualTo("ipmi");
        assertThat(request.args()).containsExactly("-o", "status");
        assertThat(request.stdin()).isEqualTo("ip=10.0.0.1\n\na b\n");
        assertThat(request.toString()).doesNotContain("t0k3n").doesNotContain("10.0.0.1").contains("2 arguments");
    }

    @Test
    @DisplayName("a request without end, token or type, with an unknown line, too long a line or too many lines fails")
    void badRequests() {
        assertThatThrownBy(() -> read("token t\ntype ipmi\n")).hasMessageContaining("ended before 'end'");
        assertThatThrownBy(() -> read("type ipmi\nend\n")).hasMessageContaining("has no token");
        assertThatThrownBy(() -> read("token t\nend\n")).hasMessageContaining("has no type");
        assertThatThrownBy(() -> read("token t\nPOST / HTTP/1.1\nend\n"))
                .hasMessageContaining("line 2 of the request is not token, type, arg, in or end");
        assertThatThrownBy(() -> read("token t\narg " + "x".repeat(ServerRequest.MAX_LINE) + "\nend\n"))
                .hasMessageContaining("longer than " + ServerRequest.MAX_LINE);
        assertThatThrownBy(() -> read("in x\n".repeat(ServerRequest.MAX_LINES + 1)))
                .hasMessageContaining("more than " + ServerRequest.MAX_LINES + " lines");
    }

    @Test
    @DisplayName("output: a frame per line as it ends, a last line without newline as out-, then the exit code")
    void frames() {
        ByteArrayOutputStream connection = new ByteArrayOutputStream();
        FramedOutput frames = new FramedOutput(connection);
        try (PrintWriter out = new PrintWriter(frames.stream("out"));
             PrintWriter err = new PrintWriter(frames.stream("err"))) {
            out.print("Status: ");
            err.println("warning: x");
            out.println("ON");
            out.print("no newline");
        }
        frames.exit(0);

        assertThat(connection.toString(StandardCharsets.UTF_8).lines().toList())
                .isEqualTo(List.of("err warning: x", "out Status: ON", "out-no newline", "exit 0"));
    }

    @Test
    @DisplayName("a caller that went away does not stop the call: what it can no longer read is dropped")
    void brokenConnection() {
        OutputStream gone = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        FramedOutput frames = new FramedOutput(gone);
        try (PrintWriter out = new PrintWriter(frames.stream("out"))) {
            out.println("Success: Powered OFF");
            assertThat(out.checkError()).isFalse();
        }
        frames.exit(0);
    }
}
