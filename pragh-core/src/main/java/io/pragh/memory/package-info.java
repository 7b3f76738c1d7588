/**
 * Off-heap, chunked memory (resident only where touched) that a machine's regions are made of and that fabrics register,
 * on 4 KiB or transparent huge pages. Depends on Agrona, {@code sun.misc.Unsafe} (reserving and freeing the chunks),
 * JNA (libc's {@code madvise}, for huge pages), SLF4J and {@code io.pragh}'s exceptions only.
 */
@MayDependOn({"io.pragh", "org.agrona..", "sun.misc", "com.sun.jna..", "org.slf4j.."})
package io.pragh.memory;

import io.pragh.MayDependOn;
