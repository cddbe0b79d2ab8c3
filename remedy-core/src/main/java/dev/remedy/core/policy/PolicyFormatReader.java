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

    private final List<String> rootKeys;

    /** A reader of a format whose documents have the {@code rootKeys}. */
    PolicyFormatReader(ConfigProblems problems, List<String> rootKeys) {
        this.problems = problems;
        this.selectors = new SelectorReader(problems);
        this.checks = new PolicyChecks(problems);
        this.rootKeys = rootKeys;
    }

    /** Reads the mapping {@code root}; empty if any problem was found (they are in the problems). */
    final List<Policy> read(ConfigNode root) {
        problems.checkKeys(root, "", rootKeys);
        return policies(root);
    }

    /** The policies of {@code root}, whose keys are checked already; empty if any problem was found. */
    abstract List<Policy> policies(ConfigNode root);
}
