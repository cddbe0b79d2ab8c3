/**
 * High availability on Kubernetes: one active engine per shard, and effects fenced by the shard's Lease.
 *
 * <p><b>Leadership.</b> {@link dev.remedy.fence.kube.ha.ShardLeadership} campaigns for the shard's
 * {@code coordination.k8s.io/v1} Lease with fabric8's {@code LeaderElector}. The leader builds and starts an engine;
 * standbys wait, and take over when the leader's Lease has not been renewed for the lease duration. A graceful
 * {@code close()} stops acting, closes the engine and releases the Lease, so a standby takes over at once.
 *
 * <p><b>Why effects are fenced, and how.</b> Leadership alone does not stop an old leader from acting: a process that
 * is paused (a long GC, a frozen VM, a stopped container) or cut off from the API server still believes it leads
 * until it notices, and a standby may take over meanwhile. remedy powers machines off and force-deletes pods, so no
 * effect may run from a process that is not the leader. Every effect is therefore checked, right before it runs,
 * by a {@link dev.remedy.fence.kube.ha.LeaseGuard}: the engine asks it before each agent or cluster action (the
 * core's {@code EffectGuard}), {@link dev.remedy.fence.kube.ha.LeaderOnlyClusterOperations} before each cluster
 * call and {@link dev.remedy.fence.kube.ha.LeaderOnlyStateStore} before each write of a record. The guard allows
 * acting only until <i>last successful renewal + renew deadline</i>, measured on this process's own monotonic clock
 * from the moment before the renewal was sent. A standby can take the Lease over no earlier than <i>renew time +
 * lease duration</i>, and the renew deadline is strictly shorter than the lease duration (the builder refuses
 * otherwise). So the old leader stops acting at least <i>lease duration − renew deadline</i> (5 s with the
 * defaults) before anyone else can acquire, whatever paused it: after the pause its own clock shows the renewal is
 * too old. That margin also absorbs the skew between the wall clocks that fabric8 compares with the Lease's renew
 * time. Each term of leadership has its own guard, ended for good when the term ends, so a late thread of an old
 * term's engine cannot act for a later term of the same process.
 *
 * <p><b>What remains, and what covers it.</b> A check happens before an effect, so a process paused after its
 * check and before its request reaches the API server or a BMC could still land one late effect. Records are also
 * fenced by the store's compare-and-set (a record's version, the custom resource's {@code resourceVersion}): a
 * stale leader's save is refused once the new leader saved, and an engine never runs an effect whose record it has
 * not saved first. Agent and cluster operations are idempotent, and the new leader re-issues the operation that was
 * in flight, so a duplicated OFF, status read, taint or cordon changes nothing. A refused effect is not run and is
 * not recorded: its operation stays in flight for the next leader, as if the process had died.
 *
 * <p><b>Node remediation Leases.</b> {@link dev.remedy.fence.kube.ha.NodeRemediationLease} takes the medik8s Lease
 * {@code medik8s-leases/node-<node>} before remedy remediates a node, respects it while another remediator holds
 * it, and invalidates it when the flow finishes.
 */
package dev.remedy.fence.kube.ha;
