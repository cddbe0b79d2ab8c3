package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.core.rules.PeerAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a node agent reads from and writes to the API server: the port between {@link NodeAgent} and Kubernetes
 * ({@link KubeClusterView}). Every call may block on the network; the agent bounds each one by the settings'
 * {@code apiServerTimeout}.
 */
public interface ClusterView {

    /**
     * Reads {@code node}'s remediation signals and the cluster's nodes.
     *
     * @param node     the agent's own node
     * @param bootTime when the node last booted: a signal older than that was already answered by a reset
     * @return what the API server says
     * @throws Exception if the API server cannot be read; the agent counts it as one failed check
     */
    SelfReport check(String node, Instant bootTime) throws Exception;

    /**
     * What this node sees of another node, for a peer that asks: {@link PeerAnswer#UNHEALTHY} if a remediation
     * signal newer than {@code bootTime} names it, else {@link PeerAnswer#HEALTHY}.
     *
     * @param node     the asking node
     * @param bootTime when the asking node last booted
     * @throws Exception if the API server cannot be read; the agent answers {@link PeerAnswer#API_ERROR}
     */
    PeerAnswer judge(String node, Instant bootTime) throws Exception;

    /**
     * Renews the agent's Lease, saying how it can reset its node.
     *
     * @param node     the agent's node
     * @param mode     the watchdog's mode
     * @param timeout  the watchdog device's timeout, when armed
     * @param renewed  the time of the check that found the node healthy
     * @throws Exception if the Lease cannot be written
     */
    void report(String node, WatchdogMode mode, Optional<Duration> timeout, Instant renewed) throws Exception;
}
