package dev.remedy.core.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The reboot-request rules of a bare-metal host (after metal3's reboot annotation design), as a pure function of the
 * host's annotations, spec, status and the time.
 *
 * <ul>
 *   <li><b>Requests.</b> {@code reboot.metal3.io} is the unkeyed, set-and-forget request; {@code reboot.metal3.io/{key}}
 *       is a client's keyed request. The value is empty or a JSON object whose {@code mode} is {@code "hard"} or
 *       {@code "soft"}; other fields are ignored (and preserved, since only the operator's removal touches them).</li>
 *   <li><b>Malformed values</b> (not JSON, not an object, an unknown or non-string {@code mode}) are reported in
 *       {@link RebootDecision#problems()} and the request counts as {@link RebootMode#SOFT}: the request still reboots
 *       the host (soft falls back to hard after the soft timeout), so a typo never cancels a fence, and it never
 *       escalates a request its author did not clearly mark hard. {@code reboot.metal3.io/} with an empty key is not
 *       a valid annotation name; it is reported and ignored.</li>
 *   <li><b>Pending.</b> A reboot is pending while a request exists and {@code pendingRebootSince} is set and
 *       {@code lastPoweredOn} is unset or before it. A request with no pending time, or one older than the last
 *       power on, is new: {@code pendingRebootSince} becomes {@code now} (also for a host that is already off, whose
 *       "off" half of the reboot is then already done).</li>
 *   <li><b>Power.</b> A pending reboot drives the host off, in {@link RebootMode#HARD} if any request asks for it,
 *       else soft. Once the host is off it is held off while any keyed request remains. When none remains and the
 *       host's owner wants it online, the unkeyed request is removed in the same decision that restores power;
 *       with {@code online=false} the unkeyed request stays until the host is brought online.</li>
 *   <li><b>Scope.</b> Requests apply to provisioned and externally provisioned hosts; in
 *       {@link ProvisioningState#clearsRebootRequests() deprovisioning} states every request is removed and the
 *       pending time cleared; in other states requests are kept but not acted on.</li>
 * </ul>
 */
public final class RebootRequests {

    /** The unkeyed request annotation. */
    public static final String ANNOTATION = "reboot.metal3.io";

    /** The prefix of keyed request annotations: {@code reboot.metal3.io/{key}}. */
    public static final String ANNOTATION_PREFIX = ANNOTATION + "/";

    private static final ObjectMapper JSON = new ObjectMapper();

    private RebootRequests() {
    }

    /**
     * The reboot requests found among annotations.
     *
     * @param requests valid requests, sorted by annotation
     * @param problems malformed requests, one sentence each, sorted
     */
    public record Parsed(List<RebootRequest> requests, List<String> problems) {
        /** Validates the fields and copies the lists. */
        public Parsed {
            requests = List.copyOf(Objects.requireNonNull(requests, "requests"));
            problems = List.copyOf(Objects.requireNonNull(problems, "problems"));
        }

        /**
         * The mode to power off with.
         *
         * @return {@link RebootMode#HARD} if any request asks for it, else {@link RebootMode#SOFT}
         */
        public RebootMode mode() {
            return requests.stream().anyMatch(r -> r.mode() == RebootMode.HARD) ? RebootMode.HARD : RebootMode.SOFT;
        }

        /**
         * Whether a keyed request remains.
         *
         * @return true if any request is keyed
         */
        public boolean anyKeyed() {
            return requests.stream().anyMatch(RebootRequest::keyed);
        }
    }

    /**
     * Reads the reboot requests among a host's annotations.
     *
     * @param annotations all annotations of the host
     * @return the valid requests and the problems found
     */
    public static Parsed parse(Map<String, String> annotations) {
        Objects.requireNonNull(annotations, "annotations");
        List<RebootRequest> requests = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            String name = e.getKey();
            Optional<String> key;
            if (name.equals(ANNOTATION)) {
                key = Optional.empty();
            } else if (name.startsWith(ANNOTATION_PREFIX)) {
                String k = name.substring(ANNOTATION_PREFIX.length());
                if (k.isEmpty()) {
                    problems.add("annotation " + name + " has an empty key and is ignored: name keyed requests "
                            + ANNOTATION_PREFIX + "{key}");
                    continue;
                }
                key = Optional.of(k);
            } else {
                continue;
            }
            requests.add(new RebootRequest(name, key, modeOf(name, e.getValue(), problems)));
        }
        requests.sort(Comparator.comparing(RebootRequest::annotation));
        problems.sort(Comparator.naturalOrder());
        return new Parsed(requests, problems);
    }

    private static RebootMode modeOf(String name, String value, List<String> problems) {
        if (value.isBlank()) {
            return RebootMode.SOFT;
        }
        String expected = "; expected empty or {\"mode\":\"hard\"|\"soft\"}, treated as soft";
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (JsonProcessingException ex) {
            problems.add("annotation " + name + ": value '" + value + "' is not JSON" + expected);
            return RebootMode.SOFT;
        }
        if (node == null || !node.isObject()) {
            problems.add("annotation " + name + ": value '" + value + "' is not a JSON object" + expected);
            return RebootMode.SOFT;
        }
        JsonNode mode = node.get("mode");
        if (mode == null) {
            return RebootMode.SOFT;
        }
        if (mode.isTextual() && mode.textValue().equals("hard")) {
            return RebootMode.HARD;
        }
        if (mode.isTextual() && mode.textValue().equals("soft")) {
            return RebootMode.SOFT;
        }
        problems.add("annotation " + name + ": mode " + mode + " is neither \"hard\" nor \"soft\"" + expected);
        return RebootMode.SOFT;
    }

    /**
     * Whether a reboot is pending.
     *
     * @param anyRequest         whether any reboot request exists
     * @param lastPoweredOn      when the host last powered on
     * @param pendingRebootSince when the current request was first noticed
     * @return true if a request exists, the pending time is set, and the host has not powered on since
     */
    public static boolean isPending(boolean anyRequest, Optional<Instant> lastPoweredOn,
            Optional<Instant> pendingRebootSince) {
        Objects.requireNonNull(lastPoweredOn, "lastPoweredOn");
        Objects.requireNonNull(pendingRebootSince, "pendingRebootSince");
        return anyRequest && pendingRebootSince.isPresent()
                && (lastPoweredOn.isEmpty() || lastPoweredOn.get().isBefore(pendingRebootSince.get()));
    }

    /**
     * Decides the host's power and the reboot annotations to remove.
     *
     * @param host what the operator reads from the host
     * @param now  the current time, recorded as {@code pendingRebootSince} for a new request
     * @return the decision
     */
    public static RebootDecision decide(HostSnapshot host, Instant now) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(now, "now");
        Parsed parsed = parse(host.annotations());
        List<RebootRequest> requests = parsed.requests();
        RebootMode mode = parsed.mode();
        if (host.provisioningState().clearsRebootRequests()) {
            TreeSet<String> all = new TreeSet<>();
            for (String name : host.annotations().keySet()) {
                if (name.equals(ANNOTATION) || name.startsWith(ANNOTATION_PREFIX)) {
                    all.add(name);
                }
            }
            return new RebootDecision(host.online(), mode, false, List.copyOf(all), Optional.empty(), requests,
                    parsed.problems(), "the host is " + host.provisioningState() + ": every reboot request is cleared");
        }
        if (!host.provisioningState().acceptsRebootRequests()) {
            String why = requests.isEmpty() ? "no reboot requested"
                    : "reboot requests apply to provisioned hosts only; the host is " + host.provisioningState()
                            + " and its requests are kept";
            return new RebootDecision(host.online(), mode, false, List.of(), host.pendingRebootSince(), requests,
                    parsed.problems(), why);
        }
        if (requests.isEmpty()) {
            return new RebootDecision(host.online(), mode, false, List.of(), host.pendingRebootSince(), requests,
                    parsed.problems(), "no reboot requested");
        }
        Optional<Instant> since = host.pendingRebootSince();
        if (!isPending(true, host.lastPoweredOn(), since)) {
            since = Optional.of(now);
        }
        boolean pending = isPending(true, host.lastPoweredOn(), since);
        if (!pending) {
            // lastPoweredOn is at or after now: a clock that went backwards; never reboot on a guess, report it.
            return new RebootDecision(host.online(), mode, false, List.of(), since, requests, parsed.problems(),
                    "lastPoweredOn " + host.lastPoweredOn().orElseThrow() + " is not before now " + now
                            + ": the request waits until the clock passes it");
        }
        if (host.poweredOn()) {
            return new RebootDecision(false, mode, true, List.of(), since, requests, parsed.problems(),
                    "reboot requested since " + since.get() + ": powering off (" + mode + ")");
        }
        if (parsed.anyKeyed()) {
            List<String> keys = requests.stream().filter(RebootRequest::keyed).map(r -> r.key().get()).toList();
            return new RebootDecision(false, mode, true, List.of(), since, requests, parsed.problems(),
                    "held powered off until every keyed request is removed: " + keys);
        }
        if (!host.online()) {
            return new RebootDecision(false, mode, true, List.of(), since, requests, parsed.problems(),
                    "powered off and offline by spec: the unkeyed request stays until the host is brought online");
        }
        return new RebootDecision(true, mode, true, List.of(ANNOTATION), since, requests, parsed.problems(),
                "powered off since the request: removing " + ANNOTATION + " and restoring power");
    }

    /**
     * The mode to use now for a power off that was requested in {@code requested} mode at {@code offRequestedAt}:
     * a soft power off that has not taken effect within {@code softTimeout} becomes hard.
     *
     * @param requested      the mode of the decision
     * @param offRequestedAt when the soft power off was first asked for
     * @param softTimeout    how long a graceful shutdown may take; positive
     * @param now            the current time
     * @return {@link RebootMode#HARD} if requested, or if {@code now} is at or past {@code offRequestedAt + softTimeout}
     */
    public static RebootMode modeAt(RebootMode requested, Instant offRequestedAt, Duration softTimeout, Instant now) {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(offRequestedAt, "offRequestedAt");
        Objects.requireNonNull(softTimeout, "softTimeout");
        Objects.requireNonNull(now, "now");
        if (softTimeout.isNegative() || softTimeout.isZero()) {
            throw new IllegalArgumentException("softTimeout: must be positive, was " + softTimeout);
        }
        if (requested == RebootMode.HARD) {
            return RebootMode.HARD;
        }
        return now.isBefore(offRequestedAt.plus(softTimeout)) ? RebootMode.SOFT : RebootMode.HARD;
    }
}
