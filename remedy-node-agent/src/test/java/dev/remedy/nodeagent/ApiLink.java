package dev.remedy.nodeagent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;

/**
 * One node's link to the API server: a loopback TCP proxy in front of the mock API server, with a switch. OPEN
 * forwards; REFUSE closes every connection at once (a partition that resets connections); HANG accepts and never
 * answers (a partition that drops packets: only the client's timeout ends a request). Switching closes the
 * connections in flight, so a pooled connection does not outlive a cut.
 */
final class ApiLink implements AutoCloseable {

    enum Mode { OPEN, REFUSE, HANG }

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final ExecutorService threads;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.OPEN;

    ApiLink(InetSocketAddress target, ExecutorService threads) throws IOException {
        this.target = target;
        this.threads = threads;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.submit(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    void set(Mode mode) {
        this.mode = mode;
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            switch (mode) {
                case REFUSE -> closeQuietly(client);
                case HANG -> open.add(client);
                case OPEN -> forward(client);
            }
        }
    }

    private void forward(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(target, 1_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        open.add(client);
        open.add(server);
        threads.submit(() -> pipe(client, server));
        threads.submit(() -> pipe(server, client));
    }

    private void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the other side or the switch closed it
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        set(Mode.REFUSE);
    }
}
