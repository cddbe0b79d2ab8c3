package dev.remedy.fence.ipmi;

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
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The module's declared API (README, module table): its API packages are the ones listed in {@link #API}, everything
 * else lives in {@code internal} packages, and no public signature outside them names an internal type, so that
 * code using only the API never has to touch an internal type. A new package is a decision: add it to {@link #API}
 * and the README, or put it under {@code internal}.
 */
class DeclaredApiTest {

    private static final String ROOT = "dev.remedy.fence.ipmi";

    /** The API packages; every other package of the module is an {@code internal} one. */
    private static final Set<String> API = Set.of(ROOT);

    private static final JavaClasses MODULE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    @DisplayName("every package of the module is one of its API packages or an internal one")
    void everyPackageIsDeclared() {
        Set<String> packages = new TreeSet<>();
        MODULE.stream().filter(type -> !type.getSimpleName().equals("package-info")).map(JavaClass::getPackageName)
                .filter(name -> !isInternal(name)).forEach(packages::add);
        assertThat(packages).as("packages outside internal ones").containsExactlyInAnyOrderElementsOf(API);
    }

    @Test
    @DisplayName("no public type outside internal packages names an internal type in a public or protected signature")
    void noInternalTypeInTheApi() {
        classes().that().resideOutsideOfPackage("..internal..").should(EXPOSE_NO_INTERNAL_TYPE).check(MODULE);
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
                    type.getAllFields().stream().filter(DeclaredApiTest::visible)
                            .forEach(field -> leaks(leaks, "field " + field.getName(), Stream.of(field.getType())));
                    Stream.concat(type.getConstructors().stream(), type.getAllMethods().stream())
                            .filter(DeclaredApiTest::visible)
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
        return type.getEnclosingClass().map(DeclaredApiTest::accessible).orElse(true);
    }

    private static boolean visible(JavaMember member) {
        return member.getModifiers().contains(JavaModifier.PUBLIC)
                || member.getModifiers().contains(JavaModifier.PROTECTED);
    }

    private static boolean isInternal(String packageName) {
        return (packageName + ".").contains(".internal.");
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }
}
