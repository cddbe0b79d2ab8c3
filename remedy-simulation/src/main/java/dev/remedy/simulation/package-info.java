/**
 * The policy test harness: run remedy policies against a simulated cluster on fake time and check the timeline of
 * what they decided, in milliseconds of real time.
 *
 * <p>A {@link dev.remedy.simulation.Scenario} describes the cluster (nodes with labels) and what happens to
 * it: {@linkplain dev.remedy.simulation.Fault faults} starting and clearing on
 * {@linkplain dev.remedy.simulation.NodeSelection selected nodes}, and BMCs that
 * {@linkplain dev.remedy.simulation.BmcBehaviour fail, hang or lie}.
 * {@link dev.remedy.simulation.PolicySimulation#run PolicySimulation.run} drives the real policy controller
 * and fence engine through it and returns a {@link dev.remedy.simulation.Timeline} of
 * {@link dev.remedy.simulation.TimelineEntry entries} (time from the start, node, kind, remedy, reason):
 *
 * <pre>{@code
 * Scenario scenario = Scenario.builder().nodes(6)
 *         .at("1m", Scenario.fault(Fault.HANG, "node-3"))
 *         .runFor("20m").build();
 * Timeline timeline = PolicySimulation.run(List.of(policy), scenario);
 * assertThat(timeline.fencedNodes()).containsExactly("node-3");
 * assertThat(timeline.firstAt("node-3", Kind.FENCED)).hasValue(Duration.ofMinutes(6).plusSeconds(30));
 * }</pre>
 *
 * <h2>Scenario files</h2>
 *
 * {@link dev.remedy.simulation.ScenarioReader} reads the same scenarios from YAML (or JSON); every problem
 * is reported at once with its path, and unknown keys are refused:
 *
 * <pre>
 * name: rack switch failure            # optional
 * nodes:                               # a count (nodes node-0 .. node-N-1), or groups of nodes:
 *   - names: node-0..node-4            #   a node selection of names or ranges
 *     labels: {rack: r0}               #   optional labels of every node of the group
 *   - names: node-5..node-9
 *     labels: {rack: r1}
 * bmc:                                 # optional initial BMC behaviour: ok, fails, hangs, lies
 *   node-7: hangs                      #   (keys are node selections)
 * events:                              # optional; each has 'at' and one of fault, clear, bmc
 *   - {at: 2m, fault: network, nodes: rack=r1}   # fault: hang, network, dead, flap
 *   - {at: 12m, clear: rack=r1}                  # the faults of these nodes end
 *   - {at: 5m, bmc: ok, nodes: node-7}           # the BMC changes
 * run_for: 30m                         # optional, default 30m, at most 7d
 * settings:                            # optional
 *   tick: 5s                           #   simulation step: at most run_for, and at most 100,000 of them
 *   boot_time: 2m                      #   power cycle to Ready
 *   flap_period: 20s                   #   a flapping node changes Unknown/False this often
 *   remediation_delay: 1m              #   the external remediator reboots a node after this long
 * </pre>
 *
 * A node selection is {@code all}, a name, a range {@code node-3..node-5}, a label {@code rack=r1}, or several of
 * these separated by commas; a scenario has at most 5,000 nodes, and a range that names more is refused before its
 * names are made. Durations are {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h} or ISO-8601, each at most 7d.
 *
 * <h2>Physics</h2>
 *
 * A node is {@code Ready=True} while it is powered on, booted and without a fault. Powered off, booting, hung
 * ({@code hang}), partitioned ({@code network}) or dead ({@code dead}) it is {@code Ready=Unknown}; flapping
 * ({@code flap}) it alternates between {@code Unknown} and {@code False}. A power cycle (by the engine through the
 * BMC, or by the external remediator) ends a hang and starts a boot; nothing else ends a fault but the scenario.
 * Conditions change their last-transition time only when their status changes.
 *
 * <h2>Storm protection</h2>
 *
 * By default each policy is protected by its own storm settings ({@link dev.remedy.core.policy.Policy#storm()})
 * through core's {@link dev.remedy.core.policy.StormGate} (seeded, without a quiet period: the simulated engine has
 * been running for long); storms and suspected failure domains appear in the timeline, their node column naming
 * the {@code pool} or the domain ({@code rack=r1}). Another admission gate per policy can be given
 * ({@link dev.remedy.simulation.SimulationOptions.Builder#gates}); a
 * {@link dev.remedy.simulation.ClassifiedGate} also tells the timeline whether a denial is a hold, a storm
 * refusal or a suspected failure of shared infrastructure.
 */
package dev.remedy.simulation;
