package dev.remedy.core;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The packages of remedy-core form layers: each depends only on the packages below it, so each can be read, tested
 * and changed without the ones above. A new dependency between two packages is a design decision: add it to
 * {@link #ALLOWED} on purpose, never to silence this test.
 */
class PackageDependenciesTest {

    private static final String ROOT = "dev.remedy.core";

    /** Which core packages each core package may use (its sub-packages included), bottom layer first. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("time", Set.of()),
            Map.entry("rules", Set.of()),
            // the self-node-remediation contract: settings built on the rules' SafeTimeSettings
            Map.entry("nodeagent", Set.of("rules")),
            Map.entry("storm", Set.of("time")),
            Map.entry("plan", Set.of()),
            Map.entry("topology", Set.of("plan")),
            Map.entry("flow", Set.of("plan", "time")),
            Map.entry("event", Set.of("flow")),
            Map.entry("store", Set.of("flow", "plan")),
            Map.entry("engine", Set.of("event", "flow", "plan", "store", "time")),
            Map.entry("policy", Set.of("engine", "flow", "storm", "time", "topology")));

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    @DisplayName("no two packages of remedy-core depend on each other, directly or through others")
    void freeOfCycles() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(CORE);
    }

    @Test
    @DisplayName("each package of remedy-core uses only the packages below it in the layer table")
    void onlyDownward() {
        Set<String> violations = new TreeSet<>();
        for (Dependency dependency : CORE.stream().flatMap(c -> c.getDirectDependenciesFromSelf().stream()).toList()) {
            String from = topPackage(dependency.getOriginClass().getPackageName());
            String to = topPackage(dependency.getTargetClass().getPackageName());
            if (from != null && to != null && !from.equals(to) && !ALLOWED.getOrDefault(from, Set.of()).contains(to)) {
                violations.add(from + " -> " + to + " (" + dependency.getDescription() + ")");
            }
        }
        assertThat(violations).as("dependencies outside the layer table").isEmpty();
    }

    @Test
    @DisplayName("the layer table names every package of remedy-core")
    void tableCoversEveryPackage() {
        Set<String> packages = new TreeSet<>();
        CORE.forEach(c -> {
            String top = topPackage(c.getPackageName());
            if (top != null) {
                packages.add(top);
            }
        });
        assertThat(ALLOWED.keySet()).containsExactlyInAnyOrderElementsOf(packages);
    }

    /** {@code flow} for {@code dev.remedy.core.flow.internal}; null outside the core's sub-packages. */
    private static String topPackage(String name) {
        if (!name.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = name.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
