/**
 * Self-node remediation for clusters without BMCs: the poison-pill design as a runtime. One
 * {@link dev.remedy.nodeagent.NodeAgent} per node (a DaemonSet, {@code remedy node-agent}) checks its own health
 * through the API server ({@link dev.remedy.nodeagent.ClusterView}, {@link dev.remedy.nodeagent.KubeClusterView}),
 * asks its peers over mutual TLS when it cannot ({@link dev.remedy.nodeagent.HttpsPeerClient},
 * {@link dev.remedy.nodeagent.PeerServer}, {@link dev.remedy.nodeagent.PeerTls}), and resets its node through a
 * {@link dev.remedy.nodeagent.Watchdog} ({@link dev.remedy.nodeagent.DeviceWatchdog}, or a software reboot). It
 * reports itself in a Lease; the names and the settings it shares with the operator are in
 * {@link dev.remedy.core.nodeagent}, its decision rules in {@link dev.remedy.core.rules}.
 * {@link dev.remedy.nodeagent.NodeAgentRunner} wires it all on a host.
 */
package dev.remedy.nodeagent;
