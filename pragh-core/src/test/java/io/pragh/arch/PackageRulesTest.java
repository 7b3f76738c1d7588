package io.pragh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The package rule names what a package reaches for beyond its package-info, and a package that states nothing. */
class PackageRulesTest {
    private static List<String> violations(String fixturePackage) {
        JavaClasses classes = new ClassFileImporter().importPackages(fixturePackage);
        EvaluationResult result = PackageRules.keepToTheirPackageInfo().evaluate(classes);
        return result.getFailureReport().getDetails();
    }

    @Test
    void aDependencyThePackageInfoDoesNotNameIsAViolationNamingBoth() {
        List<String> found = violations("io.pragh.arch.fixture.strict");
        assertTrue(!found.isEmpty() && found.stream().allMatch(v -> v.contains("not on io.pragh.keys")), found.toString());
        assertTrue(found.get(0).contains("io.pragh.arch.fixture.strict may depend on [io.pragh]"), found.get(0));
    }

    @Test
    void aPackageWithoutPackageInfoIsAViolation() {
        List<String> found = violations("io.pragh.arch.fixture.unstated");
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("has no package-info.java"), found.get(0));
    }
}
