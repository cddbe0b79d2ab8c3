/**
 * Storm protection: the checks that run before a new fence is admitted, so that a failure of something shared
 * (a rack switch, the management network, the engine itself) does not turn into fencing half the cluster.
 *
 * <p>The caller builds one {@link dev.remedy.core.storm.PoolView} per observation of a pool and asks one
 * {@link dev.remedy.core.storm.StormGuard} per pool whether a node may be fenced. The answer is an
 * {@link dev.remedy.core.storm.Admission}: admitted with a fence-race delay, held (try again later) or refused,
 * always with a {@link dev.remedy.core.storm.Admission.Reason} and a detail naming what was counted and the
 * limit. Storm and shared-infrastructure episodes, and every denial, are reported as
 * {@link dev.remedy.core.storm.StormSignal}s.
 *
 * <p>Rules, in the order they are checked (the first that applies decides):
 * <ol>
 *   <li>quiet period after the engine starts (oVirt: 300 s) &mdash; held</li>
 *   <li>connectivity loss: too large a share of the pool is disconnected, the management side may be the
 *       broken one (oVirt: 50 %) &mdash; refused</li>
 *   <li>shared infrastructure: the node's failure domain (rack, switch label) holds a suspicious concentration
 *       of unhealthy nodes &mdash; refused</li>
 *   <li>storm threshold: {@code minHealthy} (percent rounds up, medik8s) or {@code maxUnhealthy} (percent rounds
 *       down, Cluster API) &mdash; refused; then the storm cooldown after the pool is back within the threshold
 *       (medik8s {@code stormCooldownDuration}) &mdash; held</li>
 *   <li>maximum concurrent remediations in the pool &mdash; held</li>
 *   <li>one control-plane node at a time &mdash; held</li>
 *   <li>the pluggable {@link dev.remedy.core.storm.QuorumGuard} for control-plane nodes &mdash; refused</li>
 *   <li>fences per time window, then pod deletions per time window &mdash; held</li>
 * </ol>
 */
package dev.remedy.core.storm;
