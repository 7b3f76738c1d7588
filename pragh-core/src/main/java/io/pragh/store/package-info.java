/**
 * The data plane of one machine: GET (LOOKUP, cache, header check), updates with check-and-forward (PUT and any
 * read-modify-write through a {@link io.pragh.store.ValueMutator}), the store's two-sided messages, the atomic
 * restore of a value lost with its host, the retryable failures of operations that need an unreachable machine, and
 * the background {@link io.pragh.store.LeakScanner}. Depends on the layers below it: address, memory, keys, values,
 * cache, fabric, reclaim, runtime.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.cache", "io.pragh.fabric", "io.pragh.keys",
    "io.pragh.memory", "io.pragh.reclaim", "io.pragh.runtime", "io.pragh.values", "org.agrona.."})
package io.pragh.store;

import io.pragh.MayDependOn;
