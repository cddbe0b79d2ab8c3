package dev.remedy.fence.redfish;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real TLS stack in front of the Redfish simulator: Debian's nginx terminating TLS on 127.0.0.1 with a key and
 * certificate made by openssl (subject alternative name IP 127.0.0.1), proxying to the simulator's HTTP port.
 * Started with bounded waits and stopped on close.
 */
final class NginxTlsProxy implements AutoCloseable {

    private final Process nginx;
    private final int port;
    private final Path certificate;

    private NginxTlsProxy(Process nginx, int port, Path certificate) {
        this.nginx = nginx;
        this.port = port;
        this.certificate = certificate;
    }

    /** Generates the certificate, writes nginx.conf into {@code dir} and starts nginx in front of {@code backend}. */
    static NginxTlsProxy start(Path dir, int backend) throws IOException, InterruptedException {
        Path key = dir.resolve("server.key");
        Path certificate = dir.resolve("server.pem");
        run(dir, List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-days", "2", "-subj", "/CN=remedy nginx IT", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key.toString(), "-out", certificate.toString()));
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("nginx.conf"), String.join("\n",
                "daemon off;", "worker_processes 1;", "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("logs/error.log") + " warn;",
                "events { worker_connections 256; }",
                "http {",
                "  access_log off;",
                "  client_body_temp_path " + dir.resolve("body") + ";",
                "  proxy_temp_path " + dir.resolve("proxy") + ";",
                "  server {",
                "    listen 127.0.0.1:" + port + " ssl;",
                "    ssl_certificate " + certificate + ";",
                "    ssl_certificate_key " + key + ";",
                "    location / {",
                "      proxy_pass http://127.0.0.1:" + backend + ";",
                "      proxy_http_version 1.1;",
                "      proxy_set_header Connection \"\";",
                "    }",
                "  }",
                "}", ""));
        Process nginx = new ProcessBuilder("nginx", "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("logs/nginx.out").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return new NginxTlsProxy(nginx, port, certificate);
            } catch (IOException notYet) {
                if (!nginx.isAlive()) {
                    break;
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
        nginx.destroyForcibly();
        throw new IllegalStateException("nginx did not listen on 127.0.0.1:" + port + " within 10 s: "
                + Files.readString(dir.resolve("logs/nginx.out")) + Files.readString(dir.resolve("logs/error.log")));
    }

    private static void run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException(command.get(0) + " failed: "
                    + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The TLS port on 127.0.0.1. */
    int port() {
        return port;
    }

    /** The PEM certificate nginx presents. */
    Path certificate() {
        return certificate;
    }

    @Override
    public void close() throws InterruptedException {
        nginx.destroy();
        if (!nginx.waitFor(5, TimeUnit.SECONDS)) {
            nginx.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
