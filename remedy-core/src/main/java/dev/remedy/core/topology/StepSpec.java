package dev.remedy.core.topology;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** One step of a topology as configured: levels of template names, tried in order, each an AND of methods. */
record StepSpec(Duration timeout, int retries, List<List<String>> levels) {

    static final StepSpec DEFAULT = new StepSpec(FenceConfiguration.DEFAULT_STEP_TIMEOUT,
            FenceConfiguration.DEFAULT_STEP_RETRIES, List.of());

    StepSpec {
        Objects.requireNonNull(timeout, "timeout");
        levels = levels.stream().map(List::copyOf).toList();
    }
}
