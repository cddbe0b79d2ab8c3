package dev.remedy.fence.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The ServiceLoader provider's own transport, started by its first agent, stops when the provider is closed. */
class IpmiProviderCloseTest {

    private static Set<Thread> ioThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("remedy-ipmi-") && t.isAlive()).collect(Collectors.toSet());
    }

    @Test
    @DisplayName("close stops the I/O thread the provider started, and a later agent starts a new one")
    void closeStopsTheSharedTransport() throws Exception {
        Set<Thread> before = ioThreads();
        IpmiFenceAgentProvider provider = new IpmiFenceAgentProvider();
        AgentConfig config = provider.configure().set("ip", "127.0.0.1").set("username", "admin")
                .secret("password", Secret.of("close-test-password")).build();

        try (FenceAgent agent = provider.create(config)) {
            List<Thread> started = ioThreads().stream().filter(t -> !before.contains(t)).toList();
            assertThat(started).as("the provider's I/O thread").isNotEmpty();

            provider.close();

            for (Thread thread : started) {
                thread.join(2_000);
                assertThat(thread.isAlive()).as(thread.getName()).isFalse();
            }
        }
        try (FenceAgent again = provider.create(config)) {
            assertThat(ioThreads().stream().filter(t -> !before.contains(t))).as("a new transport").isNotEmpty();
        } finally {
            provider.close();
        }
    }
}
