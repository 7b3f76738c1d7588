package io.pragh.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.pragh.MayDependOn;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The rule every module's {@code PackageDependenciesTest} runs: each Pragh package has a package-info.java with
 * {@link MayDependOn}, and its classes depend on nothing else than their own package, the JDK, the SLF4J API and
 * what that annotation names. Code generated at build time (JMH's {@code jmh_generated}) is not held to it.
 *
 * <pre>{@code
 * @AnalyzeClasses(packages = "io.pragh", importOptions = {DoNotIncludeTests.class, DoNotIncludeJars.class})
 * class PackageDependenciesTest {
 *     @ArchTest
 *     static final ArchRule packagesKeepToTheirPackageInfo = PackageRules.keepToTheirPackageInfo();
 * }
 * }</pre>
 */
public final class PackageRules {
    /** Allowed to every package: the JDK and the logging API. */
    private static final List<PackageMatcher> EVERYWHERE = List.of(PackageMatcher.of("java.."),
        PackageMatcher.of("javax.."), PackageMatcher.of("jdk.."), PackageMatcher.of("org.slf4j"));

    private PackageRules() {
    }

    public static ArchRule keepToTheirPackageInfo() {
        return classes().that().resideInAPackage("io.pragh..").and().resideOutsideOfPackage("..jmh_generated..")
            .should(dependOnlyOnWhatTheirPackageInfoNames());
    }

    static ArchCondition<JavaClass> dependOnlyOnWhatTheirPackageInfoNames() {
        return new ArchCondition<>("depend only on their own package, the JDK, SLF4J and what their package's "
            + "@MayDependOn names") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                JavaPackage pkg = c.getPackage();
                Optional<MayDependOn> rule = pkg.tryGetAnnotationOfType(MayDependOn.class);
                if (rule.isEmpty()) {
                    if (pkg.tryGetPackageInfo().isEmpty()) {
                        events.add(SimpleConditionEvent.violated(c, "package " + pkg.getName() + " of " + c.getName()
                            + " has no package-info.java saying (@MayDependOn) what it may depend on"));
                    } else if (c.getSimpleName().equals("package-info")) {
                        events.add(SimpleConditionEvent.violated(c, "the package-info.java of " + pkg.getName()
                            + " does not say (@MayDependOn) what the package may depend on"));
                    }
                    return;
                }
                List<PackageMatcher> allowed = Arrays.stream(rule.get().value()).map(PackageMatcher::of).toList();
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass().getBaseComponentType();
                    String to = target.getPackageName();
                    if (target.isPrimitive() || target.isEquivalentTo(MayDependOn.class) || to.equals(pkg.getName())
                        || matches(EVERYWHERE, to)
                        || matches(allowed, to)) {
                        continue;
                    }
                    events.add(SimpleConditionEvent.violated(d, pkg.getName() + " may depend on "
                        + Arrays.toString(rule.get().value()) + " (its package-info.java), not on " + to + ": "
                        + d.getDescription()));
                }
            }
        };
    }

    private static boolean matches(List<PackageMatcher> matchers, String packageName) {
        for (PackageMatcher m : matchers) {
            if (m.matches(packageName)) {
                return true;
            }
        }
        return false;
    }
}
