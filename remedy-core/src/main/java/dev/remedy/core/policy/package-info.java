/**
 * Remedy policies: which nodes a policy covers, which conditions make a node unhealthy and for how long, and
 * the escalation ladder of remedies; evaluated against {@link dev.remedy.core.policy.NodeStatus} observations.
 *
 * <h2>Loading policies</h2>
 *
 * {@link dev.remedy.core.policy.PolicyLoader} reads a {@link dev.remedy.core.policy.PolicySet} from YAML or JSON,
 * with the same strictness as the fence configuration: a file with problems is refused with one
 * {@link dev.remedy.core.policy.PolicyConfigurationException} listing every problem as {@code file:path: message}
 * (unknown keys with "did you mean", missing keys, empty lists, malformed durations, …).
 *
 * <h3>remedy's format</h3>
 *
 * <pre>{@code
 * apiVersion: remedy.dev/v1alpha1      # optional; so is kind: PolicySet
 * policies:                            # at least one; a node belongs to the first policy that covers it
 *   - name: workers                    # required, unique
 *     role: worker                     # worker (default) | control-plane: one role, never both
 *     selector: {node-role.kubernetes.io/worker: ""}   # matchLabels; left out = every node of the role
 *     unhealthyConditions:             # required, OR'ed; duration counts from the condition's last transition,
 *                                      # at least 30s (a kubelet restart is a few seconds of NotReady)
 *       - {type: Ready, status: "False", duration: 300s}  # status True | False | Unknown (YAML true/false too)
 *       - {type: Ready, status: Unknown, duration: 300s}
 *     escalation:                      # required, in order; each: name, exactly one of fence/external, timeout
 *       - {name: reboot-by-bmc, fence: {}, timeout: 10m}   # the fence flow, agents from the fence topology
 *       - name: snr                    # an external remediation template, by ObjectReference
 *         external: {apiVersion: self-node-remediation.medik8s.io/v1alpha1,   # group/version
 *                    kind: SelfNodeRemediationTemplate,  # must end in Template
 *                    name: self-node-remediation-automatic-strategy-template,
 *                    namespace: medik8s}   # optional; left out = the namespace remedy runs in
 *         timeout: 15m                 # at least 60s (as medik8s): a remedy needs time to act
 *       - name: reboot                 # or an inline object, created as it is (kind must not end in Template)
 *         external: {apiVersion: remediation.example.com/v1, kind: Reboot, spec: {mode: hard}}
 *         timeout: 10m
 *     exclusionLabel: remedy.dev/exclude-from-remediation  # optional, this is the default
 *     healthyDelay: 60s                # optional, default 0s
 *     pauseRequests: []                # optional: who paused it; while not empty no remediation starts
 *     storm:                           # optional, every key optional (StormSettings.ofDefaults())
 *       minHealthy: "51%"              # or maxUnhealthy: "40%" / 3; not both
 *       stormCooldown: 5m
 *       maxConcurrent: 5
 *       oneControlPlaneAtATime: true
 *       fencesPerWindow: {count: 10, window: 10m}      # or none
 *       podDeletionsPerWindow: {count: 1000, window: 10m}  # or none
 *       failureDomainLabel: topology.kubernetes.io/rack
 *       maxDomainShare: 0.5
 *       domainMinUnhealthy: 3
 *       domainShareBasis: of-domain-nodes              # or of-unhealthy-nodes
 *       maxDisconnectedShare: 0.5
 *       quietPeriod: 300s
 *       raceDelay: {base: 0s, randomMax: 0s, priority: 0s}
 * }</pre>
 *
 * An {@code external} remedy is a {@link dev.remedy.core.policy.Remedy.External}. With {@code name} it refers to a
 * remediation template ({@link dev.remedy.core.policy.Remedy.External.TemplateRef}): remedy looks the template up and
 * instantiates it for the node as NodeHealthCheck and MachineHealthCheck do (kind without {@code Template}, spec from
 * the template's {@code spec.template.spec}); a reference has no {@code spec}. Without {@code name} it is an inline
 * object ({@link dev.remedy.core.policy.Remedy.External.Inline}) that remedy creates for the node as it is: the
 * remediation object itself, never a template (a kind ending in {@code Template} is refused), and {@code spec}
 * optional. How a port creates the object is {@link dev.remedy.core.policy.ExternalRemediations}' business (fence-kube:
 * {@code dev.remedy.fence.kube.external.KubeExternalRemediations}).
 *
 * <p>A worker policy whose selector names the control-plane (or master) label is refused: it would cover no node;
 * a role must be chosen. Label keys and values (of selectors, {@code exclusionLabel}, {@code failureDomainLabel})
 * follow Kubernetes' rules. Durations are written as {@code 30s}, {@code 5m}, {@code 1h}, a number of seconds or
 * ISO-8601 ({@link dev.remedy.spi.config.Durations}); each is at most 7 days
 * ({@link dev.remedy.core.policy.PolicyLoader#MAX_DURATION}), race delays at most an hour.
 *
 * <h3>The Node remedy Configuration</h3>
 *
 * A document with {@code apiVersion: node-remedy/v1alpha} and {@code kind: Configuration} (the 2018 Kubernetes
 * "Node remedy" design) is converted to remedy's model:
 * <ul>
 *   <li>each entry of {@code thresholdConfigs} becomes one worker policy named
 *       {@code node-remedy/<nodeConditionType>=<nodeConditionStatus>}, with that one condition held for
 *       {@code nodeConditionPeriod} (at least 30s, as a condition's duration); a YAML boolean status means {@code True}
 *       or {@code False};</li>
 *   <li>{@code nodeSelector} is {@code key=value} ({@code ==} too), comma separated for more labels; set-based
 *       requirements are refused; left out, every worker node;</li>
 *   <li>{@code remedy1}, {@code remedy2}, … (numbered without gaps) are the ladder in number order; each is a list
 *       of single-key mappings as in the design ({@code - name: repair}, {@code - period: 3m}) or one mapping, with
 *       {@code name} (required), {@code period} (the remedy's timeout, at least 60s, default 5m) and
 *       {@code clean-resource} (also as the design's {@code clean-resourece});</li>
 *   <li>a name under {@code remedyConfigs} becomes a {@link dev.remedy.core.policy.Remedy.External} whose template
 *       is a {@code batch/v1} Job with the entry's {@code podTemplate} as {@code spec.template}; with
 *       {@code clean-resource: true} the Job carries the annotation {@code remedy.dev/release-workloads: "true"}
 *       (the design's "release the node's workloads once the job succeeded"; not acted on yet, because a Job's
 *       success does not confirm the node is off, see
 *       {@link dev.remedy.core.policy.PolicyLoader#RELEASE_WORKLOADS_ANNOTATION});</li>
 *   <li>built-in names need no {@code remedyConfigs} entry: {@code fence}, {@code power-fence} and
 *       {@code storage-fence} are a {@link dev.remedy.core.policy.Remedy.Fence}, the fence flow with the agents of
 *       the node's fence topology (storage fencing is its isolation step); the flow always releases workloads
 *       once fencing is confirmed, so {@code clean-resource: false} on them is refused;</li>
 *   <li>{@code recovery} may only name the built-in {@code recovery}, the fence flow's recovery step (power on,
 *       uncordon, remove taints), which every fence remedy ends with; it adds no rung. A recovery job is refused;</li>
 *   <li>other names are refused, and so are unknown keys, a remedyConfig with a built-in name, and a condition
 *       tracked twice; {@code podTemplate} holds {@code spec} (required) and {@code metadata}, whose contents
 *       are the pod's and are not checked.</li>
 * </ul>
 * The policies get the default exclusion label, a healthy delay of 0 and the default storm settings. Since a node
 * belongs to the first policy that covers it, and all of a document's policies share its selector, thresholds
 * after the first act on a node only once {@link dev.remedy.core.policy.PolicyController} evaluates more than the
 * first covering policy.
 */
package dev.remedy.core.policy;
