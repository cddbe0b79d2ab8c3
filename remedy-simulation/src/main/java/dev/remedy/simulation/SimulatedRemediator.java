package dev.remedy.simulation;

import dev.remedy.core.policy.ExternalRemediations;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner.Cancellation;
import dev.remedy.core.policy.RemedyRunner.Progress;
import dev.remedy.simulation.TimelineEntry.Kind;
import dev.remedy.spi.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A simulated external remediator, like a self node remediation agent: once a remediation object exists for a node,
 * it reboots the node from inside after {@link Scenario#remediationDelay()} (a power cycle, which ends a
 * {@link Fault#HANG hang}) and reports {@link Progress#DONE}, or reports {@link Progress#FAILED} for a
 * {@link Fault#DEAD dead} node. Every remedy's source (template reference or inline object) is accepted,
 * and a cancelled remediation (timed out or healthy) simply stops. Not thread-safe: the simulation loop owns it.
 */
public final class SimulatedRemediator implements ExternalRemediations {

    private final SimulatedFleet fleet;
    private final TimeSource time;
    private final Duration delay;
    private final TimelineRecorder recorder;
    private final Map<String, Job> jobs = new LinkedHashMap<>();

    SimulatedRemediator(SimulatedFleet fleet, TimeSource time, Duration delay, TimelineRecorder recorder) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.time = Objects.requireNonNull(time, "time");
        this.delay = Objects.requireNonNull(delay, "delay");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
    }

    @Override
    public void create(String node, Remedy.External remedy) {
        jobs.putIfAbsent(key(node, remedy), new Job(node, remedy.name(), time.instant()));
    }

    @Override
    public Progress progress(String node, Remedy.External remedy) {
        Job job = jobs.get(key(node, remedy));
        return job == null ? Progress.RUNNING : job.progress;
    }

    @Override
    public void delete(String node, Remedy.External remedy, Cancellation cause) {
        jobs.remove(key(node, remedy));
    }

    /** Lets every remediation whose delay has passed act on its node. */
    void advance(Instant now) {
        for (Job job : jobs.values()) {
            if (job.progress != Progress.RUNNING || now.isBefore(job.created.plus(delay))) {
                continue;
            }
            if (fleet.fault(job.node).filter(f -> f == Fault.DEAD).isPresent()) {
                job.progress = Progress.FAILED;
                recorder.record(now, job.node, Kind.REMEDIATION_FAILED, job.remedy,
                        "the remediator could not reboot the node: it does not respond");
            } else {
                fleet.powerCycle(job.node);
                job.progress = Progress.DONE;
                recorder.record(now, job.node, Kind.REBOOTED, job.remedy,
                        "the remediator rebooted the node from inside");
            }
        }
    }

    private static String key(String node, Remedy.External remedy) {
        return node + "/" + remedy.name();
    }

    /** One remediation object. */
    private static final class Job {
        private final String node;
        private final String remedy;
        private final Instant created;
        private Progress progress = Progress.RUNNING;

        Job(String node, String remedy, Instant created) {
            this.node = node;
            this.remedy = remedy;
            this.created = created;
        }
    }
}
