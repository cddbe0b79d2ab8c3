package dev.remedy.simulators.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A Redfish simulator with a fleet of systems")
class RedfishFleetTest {

    @Test
    @DisplayName("fences 500 systems concurrently on 4 worker threads, each once, with every request counted")
    void concurrentFencing() {
        ExecutorService clients = Executors.newFixedThreadPool(32);
        try (RedfishSimulator sim = RedfishSimulator.start(RedfishSpec.builder().user("admin", "redfish-secret")
                .systemCount(500).requestLogLimit(0).build())) {
            TestClient client = new TestClient(sim.baseUri());
            List<CompletableFuture<Integer>> fences = new ArrayList<>();
            for (SimulatedSystem system : sim.systems()) {
                fences.add(CompletableFuture.supplyAsync(() -> {
                    HttpResponse<String> off = client.post(system.path() + "/Actions/ComputerSystem.Reset",
                            "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN);
                    HttpResponse<String> status = client.get(system.path(), TestClient.ADMIN);
                    return off.statusCode() == 204 && status.body().contains("\"PowerState\":\"Off\"") ? 1 : 0;
                }, clients));
            }
            int fenced = fences.stream().mapToInt(CompletableFuture::join).sum();
            assertThat(fenced).isEqualTo(500);
            assertThat(sim.systems()).allSatisfy(system -> {
                assertThat(system.powerTarget().history()).containsExactly(PowerState.OFF);
                assertThat(system.resets()).containsExactly("ForceOff");
            });
            assertThat(sim.requests()).isEqualTo(1000);
            assertThat(sim.requestLog()).isEmpty();
        } finally {
            clients.shutdownNow();
        }
    }
}
