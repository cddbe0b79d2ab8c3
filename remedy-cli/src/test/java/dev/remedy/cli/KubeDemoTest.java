package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The demo's Kubernetes step alone: the operator against fabric8's mock API server, the ipmi agent against the BMC
 * simulator. Mock server gap: the {@code spec.nodeName} field selector matches nothing, so the release deletes no pod.
 */
@DisplayName("remedy demo, Kubernetes step")
class KubeDemoTest {

    @Test
    @DisplayName("fences the NotReady node over RMCP+, releases it with the out-of-service taint, powers it on, recovers it")
    void fencesReleasesAndRecovers() throws InterruptedException {
        StringWriter out = new StringWriter();
        CliEnvironment env = new CliEnvironment(Map.of(), TimeSource.system(),
                FenceAgentRegistry.of(new IpmiFenceAgentProvider()), new PrintWriter(out), new PrintWriter(out));

        boolean expected = KubeDemo.run(env);

        String printed = out.toString();
        assertThat(expected).as(printed).isTrue();
        assertThat(printed).contains("fabric8's mock API server (CRUD mode) running in this JVM at http://127.0.0.1:")
                .contains("the BMC of worker-1 switched the machine OFF")
                .contains("released: taint node.kubernetes.io/out-of-service=nodeshutdown:NoExecute on worker-1")
                .contains("worker-1 uncordoned, no remedy taint left: true")
                .contains("   as expected")
                .doesNotContain("UNEXPECTED")
                .doesNotContain(IpmiDemo.PASSWORD);
        assertThat(out.toString().lines())
                .anySatisfy(l -> assertThat(l).startsWith("   NAME").contains("NODE", "STEP", "STATE", "RETRIES",
                        "REASON", "AGE"))
                .anySatisfy(l -> assertThat(l).startsWith("   worker-1   worker-1").contains("final"))
                .anySatisfy(l -> assertThat(l).startsWith("   LAST SEEN").contains("TYPE", "REASON", "OBJECT",
                        "MESSAGE"))
                .anySatisfy(l -> assertThat(l).contains("FenceConfirmed").contains("node/worker-1"))
                .anySatisfy(l -> assertThat(l).contains("OperationSucceeded", "nodefence/worker-1", "bmc off",
                        "reports power OFF (confirmed)"))
                .anySatisfy(l -> assertThat(l).contains("FenceFinished", "node/worker-1", "node recovered"));
    }
}
