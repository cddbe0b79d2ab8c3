package dev.remedy.benchmarks;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Node objects for the kube benchmark: minimal ones, and ones shaped like a real kubelet's. */
final class KubeNodes {

    private static final String[] IMAGES = {"registry.k8s.io/kube-proxy:v1.30.2", "quay.io/calico/node:v3.28.0",
        "quay.io/calico/cni:v3.28.0", "registry.k8s.io/pause:3.9", "docker.io/library/nginx:1.27.0",
        "quay.io/prometheus/node-exporter:v1.8.1", "registry.k8s.io/coredns/coredns:v1.11.1",
        "docker.io/grafana/promtail:3.0.0", "registry.k8s.io/csi-node-driver-registrar:v2.10.1",
        "docker.io/library/redis:7.2.5"};

    private KubeNodes() {
    }

    /** A small node with only its Ready condition (status {@code ready}) since {@code since}. */
    static Node minimal(String name, boolean ready, Instant since) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of("kubernetes.io/hostname", name)).endMetadata()
                .withNewStatus().withConditions(ready(ready, since)).withNewNodeInfo().withBootID("boot-1")
                .endNodeInfo().endStatus().build();
    }

    /** The Ready condition. */
    static NodeCondition ready(boolean ready, Instant since) {
        return new NodeConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False")
                .withReason(ready ? "KubeletReady" : "NodeStatusUnknown")
                .withMessage(ready ? "kubelet is posting ready status" : "Kubelet stopped posting node status.")
                .withLastTransitionTime(since.toString()).withLastHeartbeatTime(Instant.now().toString()).build();
    }

    /**
     * A healthy node as a kubelet on a cloud VM reports it: 12 labels, 4 annotations, 10 images with two names and a
     * size each, 5 conditions with messages, 3 addresses, capacity and allocatable, nodeInfo, podCIDR, providerID.
     */
    static Node realistic(int index) {
        String name = String.format(Locale.ROOT, "worker-%05d", index);
        String zone = "eu-west-1" + (char) ('a' + index % 3);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("beta.kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/instance-type", "m6i.2xlarge");
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put("failure-domain.beta.kubernetes.io/region", "eu-west-1");
        labels.put("failure-domain.beta.kubernetes.io/zone", zone);
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("node-role.kubernetes.io/worker", "");
        labels.put("node.kubernetes.io/instance-type", "m6i.2xlarge");
        labels.put("topology.kubernetes.io/region", "eu-west-1");
        labels.put("topology.kubernetes.io/zone", zone);
        Map<String, String> annotations = Map.of(
                "kubeadm.alpha.kubernetes.io/cri-socket", "unix:///run/containerd/containerd.sock",
                "node.alpha.kubernetes.io/ttl", "0",
                "volumes.kubernetes.io/controller-managed-attach-detach", "true",
                "projectcalico.org/IPv4Address", "10.0." + index / 250 + "." + index % 250 + "/16");
        String since = Instant.now().minusSeconds(86_400L + index).toString();
        String heartbeat = Instant.now().toString();
        List<NodeCondition> conditions = List.of(
                condition("NetworkUnavailable", "False", "CalicoIsUp", "Calico is running on this node", since),
                condition("MemoryPressure", "False", "KubeletHasSufficientMemory",
                        "kubelet has sufficient memory available", since),
                condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", since),
                condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available",
                        since),
                new NodeConditionBuilder().withType("Ready").withStatus("True").withReason("KubeletReady")
                        .withMessage("kubelet is posting ready status. AppArmor enabled")
                        .withLastTransitionTime(since).withLastHeartbeatTime(heartbeat).build());
        List<ContainerImage> images = new ArrayList<>();
        for (int i = 0; i < IMAGES.length; i++) {
            String image = IMAGES[i];
            String repository = image.substring(0, image.lastIndexOf(':'));
            String digest = String.format(Locale.ROOT, "%064x", (long) (i + 1) * 0x9E3779B97F4A7C15L & Long.MAX_VALUE);
            images.add(new ContainerImage(List.of(repository + "@sha256:" + digest, image), 5_000_000L + 7_919_000L * i));
        }
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity("8"), "memory", new Quantity("32386524Ki"),
                "pods", new Quantity("110"), "ephemeral-storage", new Quantity("104845292Ki"),
                "hugepages-1Gi", new Quantity("0"), "hugepages-2Mi", new Quantity("0"));
        Map<String, Quantity> allocatable = Map.of("cpu", new Quantity("7910m"), "memory", new Quantity("31369692Ki"),
                "pods", new Quantity("110"), "ephemeral-storage", new Quantity("95551679124"),
                "hugepages-1Gi", new Quantity("0"), "hugepages-2Mi", new Quantity("0"));
        String ip = "10.0." + index / 250 + "." + (index % 250 + 1);
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).withAnnotations(annotations)
                .endMetadata()
                .withNewSpec().withPodCIDR("192.168." + index % 256 + ".0/24")
                .withProviderID("aws:///" + zone + "/i-0" + String.format(Locale.ROOT, "%016x", index * 2654435761L))
                .endSpec()
                .withNewStatus().withConditions(conditions).withImages(images)
                .withAddresses(new NodeAddress(ip, "InternalIP"), new NodeAddress(name, "Hostname"),
                        new NodeAddress("ip-" + ip.replace('.', '-') + ".eu-west-1.compute.internal", "InternalDNS"))
                .withCapacity(capacity).withAllocatable(allocatable)
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(10250).endKubeletEndpoint()
                .endDaemonEndpoints()
                .withNewNodeInfo().withArchitecture("amd64").withBootID(uuid(index, 1)).withMachineID(hex(index, 2))
                .withSystemUUID(uuid(index, 3)).withContainerRuntimeVersion("containerd://1.7.18")
                .withKernelVersion("6.1.94-99.176.amzn2023.x86_64").withKubeProxyVersion("v1.30.2")
                .withKubeletVersion("v1.30.2").withOperatingSystem("linux")
                .withOsImage("Amazon Linux 2023.5.20240624").endNodeInfo()
                .endStatus().build();
    }

    private static NodeCondition condition(String type, String status, String reason, String message, String since) {
        return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(since).withLastHeartbeatTime(Instant.now().toString()).build();
    }

    private static String hex(int index, int salt) {
        return String.format(Locale.ROOT, "%016x%016x", index * 0x9E3779B97F4A7C15L + salt, index * 31L + salt);
    }

    private static String uuid(int index, int salt) {
        String h = hex(index, salt);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-" + h.substring(16, 20)
                + "-" + h.substring(20, 32);
    }
}
