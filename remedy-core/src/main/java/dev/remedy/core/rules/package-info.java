/**
 * The decision rules of the seeds as pure functions: no clock reads (time is a parameter), no I/O, no threads.
 *
 * <ul>
 *   <li>{@link dev.remedy.core.rules.MachineRemediationRules}: the machine-remediation annotation truth table
 *       (node reference × needs-remediation × powered on × reboot annotation), which never leaves a host off.</li>
 *   <li>{@link dev.remedy.core.rules.RebootRequests}: the host reboot-request annotations
 *       ({@code reboot.metal3.io} and {@code reboot.metal3.io/{key}}), {@code pendingRebootSince} against
 *       {@code lastPoweredOn}, hold-off by keyed requests, hard over soft, clearing on deprovisioning.</li>
 *   <li>{@link dev.remedy.core.rules.ExternalRemediation} and {@link dev.remedy.core.rules.EscalateRemediation}:
 *       a remediation object instantiated from a template, and the {@code escalate} strategy's state machine with
 *       phases, retries, the {@code Processing}, {@code Succeeded} and {@code PermanentNodeDeletionExpected}
 *       conditions and the timed-out marker.</li>
 *   <li>{@link dev.remedy.core.rules.PeerSelection}, {@link dev.remedy.core.rules.PeerVerdict} and
 *       {@link dev.remedy.core.rules.SafeTimeSettings}: the poison-pill peer health verdict with an optional quorum,
 *       failure-domain-aware peer choice and the safe time to assume a node rebooted;
 *       {@link dev.remedy.core.rules.FailureDomainRule}: a node whose failure domain is cut off as a whole stays
 *       up, on the node side and in the operator's check alike.</li>
 * </ul>
 *
 * <p>The rules are modelled on public designs (metal3 machine remediation and reboot annotations, Cluster API
 * external remediation, medik8s Node Healthcheck and Self Node Remediation); where they deviate, the type's
 * Javadoc says so and why. Callers own the effects: each rule returns what to do, the caller persists first and
 * then applies the actions in the order given.
 */
package dev.remedy.core.rules;
