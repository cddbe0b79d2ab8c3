package dev.remedy.core.policy;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.SelectorReader;
import java.util.List;

/**
 * A policy format {@link PolicyLoader} reads: remedy's own ({@link PolicyReader}) or the Node remedy design's
 * ({@link NodeRemedyReader}). Both record every problem in the document's {@link ConfigProblems}, read selectors
 * with the one {@link SelectorReader}, and share the {@link PolicyChecks}. One instance reads one document.
 */
abstract class PolicyFormatReader {

    /** The document's problems. */
    final ConfigProblems problems;
    /** Reads selectors and label keys into {@link #problems}. */
    final SelectorReader selectors;
    /** Checks escalation timeouts and condition statuses into {@link #problems}. */
    final PolicyChecks checks;

    PolicyFormatReader(ConfigProblems problems) {
        this.problems = problems;
        this.selectors = new SelectorReader(problems);
        this.checks = new PolicyChecks(problems);
    }

    /** Reads the mapping {@code root}; empty if any problem was found (they are in the problems). */
    abstract List<Policy> read(ConfigNode root);
}
