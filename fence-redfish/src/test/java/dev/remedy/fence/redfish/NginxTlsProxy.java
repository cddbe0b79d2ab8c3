package dev.remedy.fence.redfish;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.nginx.NginxProcess;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real TLS stack in front of the Redfish simulator: Debian's nginx ({@link NginxProcess}) terminating TLS on
 * 127.0.0.1 with a key and certificate made by openssl (subject alternative name IP 127.0.0.1), proxying to the
 * simulator's HTTP port. Started with bounded waits and stopped on close.
 */
final class NginxTlsProxy implements AutoCloseable {

    private final NginxProcess nginx;
    private final Path certificate;

    private NginxTlsProxy(NginxProcess nginx, Path certificate) {
        this.nginx = nginx;
        this.certificate = certificate;
    }

    /** Generates the certificate, writes nginx.conf into {@code dir} and starts nginx in front of {@code backend}. */
    static NginxTlsProxy start(Path dir, int backend) throws InterruptedException {
        Path key = dir.resolve("server.key");
        Path certificate = dir.resolve("server.pem");
        PeerCommand.Result made = PeerCommand.of(Duration.ofSeconds(30), "openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=remedy nginx IT",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.toString(), "-out", certificate.toString())
                .run();
        if (made.exitCode() != 0) {
            throw new IllegalStateException("openssl req failed: " + made.output());
        }
        NginxProcess nginx = NginxProcess.start(dir, 1, ports -> String.join("\n",
                "  access_log off;",
                "  server {",
                "    listen 127.0.0.1:" + ports.get(0) + " ssl;",
                "    ssl_certificate " + certificate + ";",
                "    ssl_certificate_key " + key + ";",
                "    location / {",
                "      proxy_pass http://127.0.0.1:" + backend + ";",
                "      proxy_http_version 1.1;",
                "      proxy_set_header Connection \"\";",
                "    }",
                "  }"));
        return new NginxTlsProxy(nginx, certificate);
    }

    /** The TLS port on 127.0.0.1. */
    int port() {
        return nginx.ports().get(0);
    }

    /** The PEM certificate nginx presents. */
    Path certificate() {
        return certificate;
    }

    @Override
    public void close() {
        nginx.close();
    }
}
