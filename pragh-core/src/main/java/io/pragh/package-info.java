/**
 * Pragh's public embedding API and its exceptions. The embedded cluster lives in {@code io.pragh.embedded}.
 * May depend on nothing but the JDK.
 */
@MayDependOn({})
package io.pragh;
