package io.pragh;

import com.tngtech.archunit.core.importer.ImportOption.DoNotIncludeJars;
import com.tngtech.archunit.core.importer.ImportOption.DoNotIncludeTests;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.pragh.arch.PackageRules;

/**
 * Every package of this module says in its package-info.java what it may depend on, and keeps to it (the classes
 * of this module only: other modules' jars run their own copy of this test).
 */
@AnalyzeClasses(packages = "io.pragh", importOptions = {DoNotIncludeTests.class, DoNotIncludeJars.class})
class PackageDependenciesTest {
    @ArchTest
    static final ArchRule packagesKeepToWhatTheirPackageInfoSays = PackageRules.keepToTheirPackageInfo();
}
