package dev.remedy.test.fake;

import dev.remedy.spi.TimeSource;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fake targets a {@code fake} agent fences, by name. A test makes a lab, hands it to the provider
 * ({@link FakeFenceAgentProvider#FakeFenceAgentProvider(FakePowerLab)}), sets its targets up and reads them back; the
 * provider {@link java.util.ServiceLoader} creates has a lab of its own ({@link FakeFenceAgentProvider#lab()}). A
 * target named by a {@code plug} that does not exist is created powered on at first use, and unreachable if its
 * name starts with {@value #UNREACHABLE_PREFIX}. Labs share nothing, so tests need no unique names. Thread-safe.
 */
public final class FakePowerLab {

    /** Targets whose names start with this never answer, for trying failure paths from the command line. */
    public static final String UNREACHABLE_PREFIX = "unreachable";

    private final Map<String, FakePowerTarget> targets = new ConcurrentHashMap<>();

    /** A lab without targets. */
    public FakePowerLab() {
    }

    /** The target named {@code name}, created on the given clock if it does not exist yet. */
    public FakePowerTarget target(String name, TimeSource time) {
        return targets.computeIfAbsent(name, n -> newTarget(n, time));
    }

    /** A new target named {@code name}, replacing any target of that name. */
    public FakePowerTarget create(String name, TimeSource time) {
        FakePowerTarget target = newTarget(name, time);
        targets.put(name, target);
        return target;
    }

    /** The target named {@code name}, if it exists. */
    public Optional<FakePowerTarget> find(String name) {
        return Optional.ofNullable(targets.get(name));
    }

    /** Every target, by name. */
    public List<FakePowerTarget> targets() {
        return targets.values().stream().sorted(Comparator.comparing(FakePowerTarget::name)).toList();
    }

    /** Removes the target named {@code name}. */
    public void remove(String name) {
        targets.remove(name);
    }

    private static FakePowerTarget newTarget(String name, TimeSource time) {
        return new FakePowerTarget(name, time).reachable(!name.startsWith(UNREACHABLE_PREFIX));
    }
}
