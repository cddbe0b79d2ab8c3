package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the resident agent server answers launchers' calls over loopback")
class AgentServerTest {

    private static final String PASSWORD = "pw-" + UUID.randomUUID();
    /** A bound on every wait for the server thread; never an expected duration. */
    private static final long WAIT_SECONDS = 30;

    @TempDir
    private Path dir;

    private final FakePowerLab lab = new FakePowerLab();
    private final FenceAgentRegistry registry = FenceAgentRegistry.of(new FakeFenceAgentProvider(lab));
    private final String plug = "node-" + UUID.randomUUID();
    private AgentServer server;
    private Thread serving;

    private Path jar() throws IOException {
        Path jar = dir.resolve("remedy.jar");
        if (!Files.exists(jar)) {
            Files.writeString(jar, "a jar");
        }
        return jar;
    }

    private AgentServer start(TimeSource time, Duration idle, int maxCalls) throws IOException {
        server = AgentServer.start(jar(), type -> type.equals("fake") ? registry : FenceAgentRegistry.of(List.of()),
                time, idle, maxCalls);
        serving = new Thread(server::serve, "serve");
        serving.start();
        return server;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
            serving.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
    }

    private record Reply(String hello, List<String> frames) {
    }

    /** Connects, sends {@code request} after reading the first line, and reads every line until the server closes. */
    private Reply call(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.address().port())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            String hello = in.readLine();
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            List<String> frames = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                frames.add(line);
            }
            return new Reply(hello, frames);
        }
    }

    private String request(String token, String action) {
        return "token " + token + "\ntype fake\nin action=" + action + "\nin plug=" + plug + "\nin password=" + PASSWORD
                + "\nend\n";
    }

    @Test
    @DisplayName("it says its id, runs the call with the token, frames stdout and stderr, and ends with the exit code")
    void answersACall() throws Exception {
        start(new FakeTimeSource(), Duration.ofMinutes(1), 4);

        Reply status = call(request(server.address().token(), "status"));
        Reply off = call(request(server.address().token(), "off"));
        Reply offAgain = call(request(server.address().token(), "status"));

        assertThat(status.hello()).isEqualTo("hello " + server.address().id());
        assertThat(status.frames()).containsExactly("out Status: ON", "exit 0");
        assertThat(off.frames()).containsExactly("out Success: Powered OFF", "exit 0");
        assertThat(lab.target(plug, new FakeTimeSource()).power()).isEqualTo(PowerState.OFF);
        assertThat(offAgain.frames()).containsExactly("out Status: OFF", "exit 2");
    }

    @Test
    @DisplayName("command-line arguments are passed on, and failures come back framed on stderr with exit 1")
    void argumentsAndFailures() throws Exception {
        start(new FakeTimeSource(), Duration.ofMinutes(1), 4);

        Reply reply = call("token " + server.address().token() + "\ntype fake\narg -o\narg status\narg --plug=" + plug
                + "\nend\n");

        assertThat(reply.frames()).last().isEqualTo("exit 1");
        assertThat(reply.frames()).anySatisfy(line -> assertThat(line).startsWith("err fence_remedy_fake: Failed")
                .contains("password"));
    }

    @Test
    @DisplayName("a caller without the token is refused and nothing is run")
    void wrongToken() throws Exception {
        start(new FakeTimeSource(), Duration.ofMinutes(1), 4);

        Reply reply = call(request("0".repeat(32), "off"));

        assertThat(reply.hello()).startsWith("hello ");
        assertThat(reply.frames()).containsExactly("refused");
        assertThat(lab.target(plug, new FakeTimeSource()).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("a request that is not one (an unknown line) runs nothing")
    void notARequest() throws Exception {
        start(new FakeTimeSource(), Duration.ofMinutes(1), 4);

        Reply reply = call("token " + server.address().token() + "\ntype fake\nGET / HTTP/1.1\nend\n");

        assertThat(reply.frames()).isEmpty();
        assertThat(lab.target(plug, new FakeTimeSource()).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("its server file says where it listens, is readable by its owner only, and goes with the server")
    void serverFile() throws Exception {
        start(new FakeTimeSource(), Duration.ofMinutes(1), 4);
        Path file = ServerFile.of(jar());

        assertThat(ServerFile.read(file)).contains(server.address());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo(server.address().port() + " " + server.address().id() + " "
                + server.address().token() + " " + ProcessHandle.current().pid() + "\n");
        assertThat(server.address().toString()).doesNotContain(server.address().token());

        server.close();
        serving.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

        assertThat(file).doesNotExist();
    }

    @Test
    @DisplayName("when its jar changes it answers 'stale' instead of hello, runs nothing, and stops")
    void staleJar() throws Exception {
        start(new FakeTimeSource(), Duration.ofMinutes(1), 4);
        Files.setLastModifiedTime(jar(), FileTime.fromMillis(Files.getLastModifiedTime(jar()).toMillis() + 60_000));

        Reply reply = call(request(server.address().token(), "off"));
        serving.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

        assertThat(reply.hello()).isEqualTo("stale");
        assertThat(reply.frames()).isEmpty();
        assertThat(serving.isAlive()).as("stopped").isFalse();
        assertThat(lab.target(plug, new FakeTimeSource()).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("it stops once its idle time has passed without a call (on its clock)")
    void idle() throws Exception {
        FakeTimeSource time = new FakeTimeSource();
        start(time, Duration.ofMinutes(10), 4);
        call(request(server.address().token(), "status"));

        time.advance(Duration.ofMinutes(9));
        Reply stillUp = call(request(server.address().token(), "status"));
        time.advance(Duration.ofMinutes(11));
        serving.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

        assertThat(stillUp.frames()).containsExactly("out Status: ON", "exit 0");
        assertThat(serving.isAlive()).as("stopped").isFalse();
        assertThat(ServerFile.of(jar())).doesNotExist();
    }

    @Test
    @DisplayName("beyond its calls at once it answers 'busy' (the launcher then runs the call itself)")
    void busy() throws Exception {
        start(TimeSource.system(), Duration.ofMinutes(1), 1);
        String slow = "token " + server.address().token() + "\ntype fake\nin action=off\nin plug="
                + FakePowerLab.UNREACHABLE_PREFIX + "-" + plug + "\nin password=" + PASSWORD
                + "\nin login_timeout=1s\nin action_timeout=2s\nend\n";
        try (Socket first = new Socket(InetAddress.getLoopbackAddress(), server.address().port())) {
            BufferedReader in = new BufferedReader(new InputStreamReader(first.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(in.readLine()).startsWith("hello ");
            first.getOutputStream().write(slow.getBytes(StandardCharsets.UTF_8));
            first.getOutputStream().flush();

            Reply second = call(request(server.address().token(), "off"));

            assertThat(second.hello()).isEqualTo("busy");
            assertThat(lab.target(plug, new FakeTimeSource()).power()).isEqualTo(PowerState.ON);
            List<String> frames = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                frames.add(line);
            }
            assertThat(frames).last().as("the unreachable target's OFF fails").isEqualTo("exit 1");
        }
    }

    @Test
    @DisplayName("a second server for the same jar finds the first one's lock and leaves at once")
    void oneServerPerJar() throws Exception {
        Path jar = jar();
        Thread first = new Thread(() -> AgentServer.main(List.of("--jar", jar.toString(), "--idle", "60"),
                type -> registry, new FakeTimeSource(), new java.io.PrintWriter(java.io.Writer.nullWriter())));
        first.setDaemon(true);
        first.start();
        Path file = ServerFile.of(jar);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        ServerFile running = ServerFile.read(file).orElseThrow();

        int second = AgentServer.main(List.of("--jar", jar.toString(), "--idle", "60"), type -> registry,
                new FakeTimeSource(), new java.io.PrintWriter(java.io.Writer.nullWriter()));

        assertThat(second).isZero();
        assertThat(ServerFile.read(file)).contains(running);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        first.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertThat(first.isAlive()).as("the first stops once its jar changed").isFalse();
    }

    @Test
    @DisplayName("without --jar, or with a bad --idle, it says what it expects")
    void badArguments() {
        java.io.StringWriter err = new java.io.StringWriter();

        int code = AgentServer.main(List.of("--idle", "soon"), type -> registry, new FakeTimeSource(),
                new java.io.PrintWriter(err));

        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("expected --jar PATH-OF-REMEDY.JAR [--idle SECONDS]");
    }
}
