package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.SelectorReader;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the {@code storm} section of a policy (see the package documentation) into {@link StormSettings}, with
 * the builder's names, collecting every problem: each setting is checked for its form here and for its limits by
 * the builder, whose refusal becomes a problem at the setting's path.
 */
final class StormSectionReader {

    private static final List<String> STORM_KEYS = List.of("minHealthy", "maxUnhealthy", "stormCooldown",
            "maxConcurrent", "oneControlPlaneAtATime", "fencesPerWindow", "podDeletionsPerWindow",
            "failureDomainLabel", "maxDomainShare", "domainMinUnhealthy", "domainShareBasis", "maxDisconnectedShare",
            "quietPeriod", "raceDelay", "nodeCooldown", "unhealthyRange");
    private static final List<String> RATE_KEYS = List.of("count", "window");
    private static final List<String> RACE_KEYS = List.of("base", "randomMax", "priority");
    private static final List<String> BASES = List.of("of-domain-nodes", "of-unhealthy-nodes");

    private final ConfigProblems problems;
    private final PolicyChecks checks;
    private final SelectorReader selectors;

    StormSectionReader(ConfigProblems problems, PolicyChecks checks) {
        this.problems = problems;
        this.checks = checks;
        this.selectors = new SelectorReader(problems);
    }

    /** The storm settings at {@code path}; the defaults when {@code node} is null, empty after a problem. */
    Optional<StormSettings> read(ConfigNode node, String path) {
        if (node == null) {
            return Optional.of(StormSettings.ofDefaults());
        }
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of storm settings (leave it out for the defaults), not "
                    + describe(node));
            return Optional.empty();
        }
        problems.checkKeys(node, path, STORM_KEYS);
        StormSettings.Builder builder = StormSettings.custom();
        boolean[] valid = {true};
        if (node.has("minHealthy") && node.has("maxUnhealthy")) {
            problems.add(path, "sets both minHealthy and maxUnhealthy; set one of them");
            valid[0] = false;
        }
        Setting setting = new Setting(node, path, valid);
        setting.threshold("minHealthy", builder::minHealthy);
        setting.threshold("maxUnhealthy", builder::maxUnhealthy);
        setting.duration("stormCooldown", builder::stormCooldown);
        setting.count("maxConcurrent", builder::maxConcurrent);
        setting.flag("oneControlPlaneAtATime", builder::oneControlPlaneAtATime);
        setting.rate("fencesPerWindow", builder::fencesPerWindow, builder::noFenceRateLimit);
        setting.rate("podDeletionsPerWindow", builder::podDeletionsPerWindow, builder::noPodDeletionRateLimit);
        setting.label("failureDomainLabel", builder::failureDomainLabel);
        setting.share("maxDomainShare", builder::maxDomainShare);
        setting.count("domainMinUnhealthy", builder::domainMinUnhealthy);
        setting.basis("domainShareBasis", builder::domainShareBasis);
        setting.share("maxDisconnectedShare", builder::maxDisconnectedShare);
        setting.duration("quietPeriod", builder::quietPeriod);
        setting.duration("nodeCooldown", builder::nodeCooldown);
        setting.threshold("unhealthyRange", builder::unhealthyRange);
        setting.raceDelay(builder);
        if (!valid[0]) {
            return Optional.empty();
        }
        try {
            return Optional.of(builder.build());
        } catch (IllegalArgumentException | IllegalStateException e) {
            problems.add(path, e.getMessage());
            return Optional.empty();
        }
    }

    /** Reads one storm setting and hands it to the builder, turning the builder's refusal into an issue. */
    private final class Setting {
        private final ConfigNode storm;
        private final String path;
        private final boolean[] valid;

        Setting(ConfigNode storm, String path, boolean[] valid) {
            this.storm = storm;
            this.path = path;
            this.valid = valid;
        }

        private <T> void apply(String key, Optional<T> value, Consumer<T> setter) {
            if (value.isEmpty()) {
                valid[0] = false;
                return;
            }
            try {
                setter.accept(value.get());
            } catch (IllegalArgumentException | IllegalStateException e) {
                problems.add(child(path, key), e.getMessage());
                valid[0] = false;
            }
        }

        void threshold(String key, Consumer<String> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            Optional<String> text = node.isTextual() || node.isIntegralNumber() ? Optional.of(node.asText())
                    : Optional.empty();
            if (text.isEmpty()) {
                problems.add(child(path, key), "must be a node count such as 3 or a percentage such as \"40%\", not "
                        + describe(node));
            }
            apply(key, text, setter);
        }

        void duration(String key, Consumer<Duration> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, checks.duration(node, child(path, key), key), setter);
            }
        }

        void count(String key, Consumer<Integer> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, problems.wholeNumber(node, child(path, key), "1 or more"), setter);
            }
        }

        void flag(String key, Consumer<Boolean> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, problems.flag(node, child(path, key)), setter);
            }
        }

        void label(String key, Consumer<String> setter) {
            ConfigNode node = storm.get(key);
            if (node != null) {
                apply(key, problems.text(node, child(path, key), "a label key such as topology.kubernetes.io/rack")
                        .filter(k -> selectors.labelKey(k, child(path, key))), setter);
            }
        }

        void share(String key, Consumer<Double> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            if (!node.isNumber()) {
                problems.add(child(path, key), "must be a share above 0 and at most 1, such as 0.5 for one half; not "
                        + describe(node));
            }
            apply(key, node.isNumber() ? Optional.of(Double.parseDouble(node.asText())) : Optional.empty(), setter);
        }

        void basis(String key, Consumer<StormSettings.DomainShareBasis> setter) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            String given = node.isTextual() ? node.asText().toLowerCase(Locale.ROOT).replace('_', '-') : "";
            Optional<StormSettings.DomainShareBasis> basis = BASES.contains(given)
                    ? Optional.of(StormSettings.DomainShareBasis.valueOf(given.toUpperCase(Locale.ROOT)
                            .replace('-', '_')))
                    : Optional.empty();
            if (basis.isEmpty()) {
                problems.add(child(path, key), "is " + (node.isTextual() ? "'" + node.asText() + "'" : describe(node))
                        + ", not a share basis" + hint(given, BASES, "bases"));
            }
            apply(key, basis, setter);
        }

        void rate(String key, RateSetter setter, Runnable unlimited) {
            ConfigNode node = storm.get(key);
            if (node == null) {
                return;
            }
            String at = child(path, key);
            if (node.isTextual() && node.asText().equals("none")) {
                unlimited.run();
                return;
            }
            if (!node.isObject()) {
                problems.add(at, "must be {count, window} such as {count: 10, window: 10m}, or none for no limit; not "
                        + describe(node));
                valid[0] = false;
                return;
            }
            problems.checkKeys(node, at, RATE_KEYS);
            Optional<Integer> count = node.get("count") == null ? missing(child(at, "count"), "the number of events "
                    + "a window may hold") : problems.wholeNumber(node.get("count"), child(at, "count"), "1 or more");
            Optional<Duration> window = checks.duration(node.get("window"), child(at, "window"),
                    "the length of the sliding window");
            apply(key, count.isPresent() && window.isPresent() ? Optional.of(0) : Optional.empty(),
                    ignored -> setter.set(count.get(), window.get()));
        }

        void raceDelay(StormSettings.Builder builder) {
            ConfigNode node = storm.get("raceDelay");
            if (node == null) {
                return;
            }
            String at = child(path, "raceDelay");
            if (!node.isObject()) {
                problems.add(at, "must be {base, randomMax, priority}, such as {base: 0s, randomMax: 5s}; not "
                        + describe(node));
                valid[0] = false;
                return;
            }
            problems.checkKeys(node, at, RACE_KEYS);
            Optional<Duration> base = optionalDuration(node.get("base"), child(at, "base"));
            Optional<Duration> randomMax = optionalDuration(node.get("randomMax"), child(at, "randomMax"));
            Optional<Duration> priority = optionalDuration(node.get("priority"), child(at, "priority"));
            apply("raceDelay", base.isPresent() && randomMax.isPresent() ? Optional.of(0) : Optional.empty(),
                    ignored -> builder.raceDelay(base.get(), randomMax.get()));
            apply("raceDelay", priority, builder::priorityDelay);
        }

        private Optional<Duration> optionalDuration(ConfigNode node, String at) {
            return node == null ? Optional.of(Duration.ZERO)
                    : problems.duration(node, at, "a delay", StormSettings.MAX_RACE_DELAY);
        }

        private <T> Optional<T> missing(String at, String what) {
            problems.add(at, "is missing; give " + what);
            return Optional.empty();
        }
    }

    /** The builder's two-argument rate setters. */
    @FunctionalInterface
    private interface RateSetter {
        void set(int count, Duration window);
    }
}
