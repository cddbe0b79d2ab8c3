package dev.remedy.test.conformance;

import dev.remedy.spi.config.AgentConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Optional;

/**
 * The kit for an agent tested against a server on loopback (a simulator or a real peer): the reachable,
 * unreachable and wrong-password configurations differ only in port and password, and the budgets are those of
 * loopback (10 s an action, 1 s against the unreachable port, 500 ms of grace past a deadline).
 */
public abstract class LoopbackConformanceKit extends FenceAgentConformanceKit {

    /** The agent's configuration for the server's {@code port} with {@code password}. */
    protected abstract AgentConfig config(int port, String password);

    /** The port the server listens on. */
    protected abstract int port();

    /** The password the server accepts. */
    protected abstract String password();

    /** A port where nothing answers: by default a TCP port on loopback that was free a moment ago. */
    protected int unreachablePort() {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free loopback port", e);
        }
    }

    @Override
    protected final AgentConfig reachableConfig() {
        return config(port(), password());
    }

    @Override
    protected final AgentConfig unreachableConfig() {
        return config(unreachablePort(), password());
    }

    @Override
    protected final Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config(port(), "not-the-password"));
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(1);
    }

    @Override
    protected Duration deadlineGrace() {
        return Duration.ofMillis(500);
    }
}
