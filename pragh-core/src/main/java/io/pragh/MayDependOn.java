package io.pragh;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the classes of a package may use besides their own package, the JDK and the SLF4J API: stated once, on the
 * package in its {@code package-info.java} beside the prose that says why, and checked by each module's
 * {@code PackageDependenciesTest}. Entries are package names ({@code "io.pragh.keys"}: that package only, not its
 * sub-packages) or, for a library, a prefix ending in {@code ..} ({@code "org.agrona.."}: the package and everything
 * below it).
 *
 * <pre>{@code
 * @MayDependOn({"io.pragh.keys", "io.pragh.memory", "org.agrona.."})
 * package io.pragh.cache;
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PACKAGE)
public @interface MayDependOn {
    /** The packages (exact names, or prefixes ending in {@code ..}) this package may depend on. */
    String[] value() default {};
}
