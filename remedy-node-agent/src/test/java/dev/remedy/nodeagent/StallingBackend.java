package dev.remedy.nodeagent;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * An HTTP(S) server on 127.0.0.1: to every request it sends {@code 200} headers with a {@code Content-Length} and the
 * start of a JSON body, then holds the connection open without the rest, until {@link #close()}. Makes a peer that
 * stalls in the middle of its answer, directly (with TLS) or behind a proxy (plain HTTP); or, given a body, a peer
 * that sends it whole (then holds the connection the same way).
 */
final class StallingBackend implements AutoCloseable {

    /** Headers announcing 64 bytes, and the first 8 of them. */
    private static final String STALLED = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 64"
            + "\r\n\r\n{\"node\":";

    private final ServerSocket socket;
    private final Thread acceptor;
    private final List<Socket> held = new ArrayList<>();
    private final AtomicInteger served = new AtomicInteger();
    private final byte[] response;

    private StallingBackend(ServerSocket socket, String response) {
        this.socket = socket;
        this.response = response.getBytes(StandardCharsets.UTF_8);
        this.acceptor = new Thread(this::serve, "stalling-backend");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens for plain HTTP on a free port of 127.0.0.1. */
    static StallingBackend start() throws IOException {
        return new StallingBackend(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), STALLED);
    }

    /** Listens for HTTPS on a free port of 127.0.0.1, requiring a client certificate {@code tls} trusts. */
    static StallingBackend start(SSLContext tls) throws IOException {
        return new StallingBackend(tlsSocket(tls), STALLED);
    }

    /** Listens for HTTPS like {@link #start(SSLContext)}, and sends {@code body} whole. */
    static StallingBackend answering(SSLContext tls, String body) throws IOException {
        return new StallingBackend(tlsSocket(tls), "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
    }

    private static SSLServerSocket tlsSocket(SSLContext tls) throws IOException {
        SSLServerSocket socket = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getLoopbackAddress());
        socket.setNeedClientAuth(true);
        return socket;
    }

    int port() {
        return socket.getLocalPort();
    }

    /** How many requests it answered in part. */
    int served() {
        return served.get();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                synchronized (held) {
                    held.add(connection);
                }
                readRequestHead(connection.getInputStream());
                connection.getOutputStream().write(response);
                connection.getOutputStream().flush();
                served.incrementAndGet();
            } catch (IOException closed) {
                // closed by close(), or the proxy went away: the next accept tells
            }
        }
    }

    /** Reads up to the blank line that ends the request head (at most 64 KiB). */
    private static void readRequestHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        for (int i = 0, b; i < 65_536 && (b = in.read()) >= 0; i++) {
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == end.length) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        synchronized (held) {
            for (Socket connection : held) {
                connection.close();
            }
        }
    }
}
