package dev.remedy.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The declared API of every published module, as the README's module table states it: each module's API packages
 * are the ones listed in {@link #API}, everything else lives in packages named {@code internal}, and no public
 * signature outside them names an internal type, so that code using only the API never has to touch an internal
 * one. The CLI depends on every published module, so its tests see them all. A new package is a decision: add it
 * here and to the README, or put it under {@code internal}.
 */
class PublishedApiTest {

    /** Each published module's root package and its API packages; the command line is the CLI's interface. */
    private static final Map<String, Set<String>> API = Map.ofEntries(
            Map.entry("dev.remedy.spi", Set.of("dev.remedy.spi", "dev.remedy.spi.config", "dev.remedy.spi.discovery")),
            Map.entry("dev.remedy.config", Set.of("dev.remedy.config", "dev.remedy.config.profiles")),
            Map.entry("dev.remedy.core", Stream.of("engine", "event", "flow", "nodeagent", "plan", "policy", "rules",
                    "store", "storm", "time", "topology").map(area -> "dev.remedy.core." + area)
                    .collect(Collectors.toUnmodifiableSet())),
            Map.entry("dev.remedy.test", Set.of("dev.remedy.test", "dev.remedy.test.cluster",
                    "dev.remedy.test.conformance", "dev.remedy.test.fake")),
            Map.entry("dev.remedy.simulation", Set.of("dev.remedy.simulation")),
            Map.entry("dev.remedy.simulators", Set.of("dev.remedy.simulators", "dev.remedy.simulators.ipmi",
                    "dev.remedy.simulators.nginx", "dev.remedy.simulators.openssh", "dev.remedy.simulators.pacemaker",
                    "dev.remedy.simulators.redfish", "dev.remedy.simulators.snmp", "dev.remedy.simulators.ssh")),
            Map.entry("dev.remedy.fence.ipmi", Set.of("dev.remedy.fence.ipmi")),
            Map.entry("dev.remedy.fence.redfish", Set.of("dev.remedy.fence.redfish")),
            Map.entry("dev.remedy.fence.ssh", Set.of("dev.remedy.fence.ssh")),
            Map.entry("dev.remedy.fence.snmp", Set.of("dev.remedy.fence.snmp")),
            Map.entry("dev.remedy.fence.kube", Stream.of("agent", "cluster", "config", "events", "external", "ha",
                    "machine", "metrics", "nodeagent", "operator", "remediation", "store", "watch")
                    .map(area -> "dev.remedy.fence.kube." + area).collect(Collectors.toUnmodifiableSet())),
            Map.entry("dev.remedy.fence.clusterlabs", Set.of("dev.remedy.fence.clusterlabs")),
            Map.entry("dev.remedy.nodeagent", Set.of("dev.remedy.nodeagent")));

    private static final JavaClasses PUBLISHED = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(API.keySet());

    @Test
    @DisplayName("every package of every published module is one of its API packages or an internal one")
    void everyPackageIsDeclared() {
        Set<String> packages = new TreeSet<>();
        PUBLISHED.stream().filter(type -> !type.getSimpleName().equals("package-info")).map(JavaClass::getPackageName)
                .filter(name -> !isInternal(name)).forEach(packages::add);
        Set<String> declared = API.values().stream().flatMap(Set::stream).collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).as("packages outside internal ones").containsExactlyInAnyOrderElementsOf(declared);
    }

    @Test
    @DisplayName("no public type outside internal packages names an internal type in a public or protected signature")
    void noInternalTypeInTheApi() {
        classes().that().resideOutsideOfPackage("..internal..").should(EXPOSE_NO_INTERNAL_TYPE).check(PUBLISHED);
    }

    private static final ArchCondition<JavaClass> EXPOSE_NO_INTERNAL_TYPE =
            new ArchCondition<>("expose no internal type in a public or protected signature") {
                @Override
                public void check(JavaClass type, ConditionEvents events) {
                    if (!accessible(type)) {
                        return;
                    }
                    List<String> leaks = new ArrayList<>();
                    type.getSuperclass().ifPresent(superclass -> leaks(leaks, "extends", Stream.of(superclass)));
                    leaks(leaks, "implements", type.getInterfaces().stream());
                    leaks(leaks, "type parameter", type.getTypeParameters().stream());
                    type.getAllFields().stream().filter(PublishedApiTest::visible)
                            .forEach(field -> leaks(leaks, "field " + field.getName(), Stream.of(field.getType())));
                    Stream.concat(type.getConstructors().stream(), type.getAllMethods().stream())
                            .filter(PublishedApiTest::visible)
                            .forEach(code -> leaks(leaks, code.getDescription(), signature(code)));
                    leaks.forEach(leak -> events.add(SimpleConditionEvent.violated(type, type.getName() + ": " + leak)));
                }
            };

    private static Stream<JavaType> signature(JavaCodeUnit code) {
        return Stream.of(Stream.of(code.getReturnType()), code.getParameterTypes().stream(),
                        code.getTypeParameters().stream().map(JavaType.class::cast),
                        code.getThrowsClause().getTypes().stream().map(JavaType.class::cast))
                .flatMap(s -> s);
    }

    private static void leaks(List<String> leaks, String where, Stream<? extends JavaType> types) {
        types.flatMap(t -> t.getAllInvolvedRawTypes().stream()).map(JavaClass::getName).distinct()
                .filter(name -> isInternal(packageOf(name))).forEach(name -> leaks.add(where + " names " + name));
    }

    /** Whether code outside the module can name {@code type}: public, and so is every class around it. */
    private static boolean accessible(JavaClass type) {
        if (type.isAnonymousClass() || type.isLocalClass()
                || !(type.getModifiers().contains(JavaModifier.PUBLIC)
                        || !type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PROTECTED))) {
            return false;
        }
        return type.getEnclosingClass().map(PublishedApiTest::accessible).orElse(true);
    }

    private static boolean visible(JavaMember member) {
        return member.getModifiers().contains(JavaModifier.PUBLIC)
                || member.getModifiers().contains(JavaModifier.PROTECTED);
    }

    /** Whether a package of remedy is internal: one of its segments is {@code internal}. */
    private static boolean isInternal(String packageName) {
        return packageName.startsWith("dev.remedy.") && (packageName + ".").contains(".internal.");
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }
}
