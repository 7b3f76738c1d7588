/**
 * Off-heap, chunked memory (resident only where touched) that a machine's regions are made of and that fabrics register.
 * Depends on Agrona, {@code sun.misc.Unsafe} (reserving and freeing the chunks) and {@code io.pragh}'s exceptions
 * only.
 */
@MayDependOn({"io.pragh", "org.agrona..", "sun.misc"})
package io.pragh.memory;

import io.pragh.MayDependOn;
