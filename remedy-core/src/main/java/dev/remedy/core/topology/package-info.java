/**
 * Fence topology: which agents fence which node, in which order. Per node (chosen by label selector, with a
 * default), each step ({@link dev.remedy.core.plan.FenceStep}) is an ordered list of levels; a level succeeds only
 * if all its methods succeed (AND) and levels are tried in order (OR). A method is a named template (agent type
 * and shared parameters) plus the node's own parameters (address, plug, port). Each method carries its agent's
 * {@link dev.remedy.spi.FencingKind}: power management takes power agents only, since fabric and soft fencing
 * cannot prove the machine is off; they belong under isolation.
 *
 * <p>{@link dev.remedy.core.topology.FenceConfigurationLoader} reads the configuration from YAML or JSON and
 * refuses a file with problems, listing all of them in one
 * {@link dev.remedy.core.topology.FenceConfigurationException}:
 *
 * <pre>{@code
 * templates:
 *   bmc:                                   # a method template
 *     agent: ipmi                          # agent type id, known to the FenceAgentRegistry
 *     parameters: {username: admin}        # shared, non-secret agent parameters
 *     secrets: {password: {env: BMC_PASSWORD}}   # secret parameters, only as {env: VAR}, {file: PATH} or
 *                                      # {secret: {name: N, key: K}} (a Secret in the operator's namespace)
 * topologies:                              # the first whose selector matches a node's labels wins
 *   - name: control-plane
 *     selector: {node-role.kubernetes.io/control-plane: ""}
 *     power_management: {timeout: 120s, retries: 2, levels: [[bmc]]}
 *   - name: default                        # no selector: the default, last and at most one
 *     power_management: {levels: [[bmc]]} # steps left out: {timeout: 60s, retries: 0, levels: []}
 * nodes:                                   # each node's own parameters, per template (the node's win)
 *   worker-1: {bmc: {address: 10.0.0.11}}
 * }</pre>
 *
 * <p>{@link dev.remedy.core.topology.FenceConfiguration#planFor} then gives one node its
 * {@link dev.remedy.core.plan.NodePlan}, with secrets read through a
 * {@link dev.remedy.core.topology.SecretResolver}. The file is read with the configuration toolkit
 * ({@code dev.remedy.config}, module remedy-config): a selector's label keys and values follow Kubernetes' rules,
 * and no public signature mentions the parser.
 */
package dev.remedy.core.topology;
