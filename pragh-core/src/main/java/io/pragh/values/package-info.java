/**
 * The value region: variable-sized, 8-byte aligned value records whose header (generation, size class, live and
 * pending flags, owning key) exposes stale and reused addresses, their size-class allocator with generation-checked
 * frees, and a walk over every record it hosts. Depends on {@code io.pragh.address} and {@code io.pragh.memory}.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.memory", "org.agrona.."})
package io.pragh.values;

import io.pragh.MayDependOn;
