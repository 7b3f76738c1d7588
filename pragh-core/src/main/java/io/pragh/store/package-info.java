/**
 * The data plane of one machine: GET (LOOKUP, cache, header check), updates with check-and-forward (PUT and any
 * read-modify-write through a {@link io.pragh.store.ValueMutator}; appends written in place into a record's slack,
 * see {@code InPlaceAppend}), the store's two-sided messages, the atomic
 * restore of a value lost with its host, the retryable failures of operations that need an unreachable machine, and
 * the background {@link io.pragh.store.LeakScanner}. {@link io.pragh.store.MachineStore} puts one machine together
 * and owns its lifecycle; each duty lives in its own class: the memory and its word-level operations
 * ({@code StoreRegions}), admission and closing ({@code StoreGate}), update acknowledgement and the LOG/settle path
 * ({@code UpdateAcknowledgements}), message routing ({@code MessageRouter}), the update protocol
 * ({@code UpdateProtocol}), values installed outside it ({@code DirectInstalls}) and held at home after a put-back
 * ({@link io.pragh.store.PutBackFence}), versions ({@code Incarnations})
 * and the GC thread with its reclaim rings and the leak scan ({@code StoreReclamation}). Read replicas of contended
 * values (docs/replicas.md) live here too, beside the update protocol that must invalidate them: the host's
 * {@link io.pragh.store.ReplicaRegistry}, the holder's {@link io.pragh.store.Replicas} and their
 * {@link io.pragh.store.Replication}.
 * Depends on the layers below it: address, memory, keys, values, cache, fabric, reclaim, runtime.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.cache", "io.pragh.fabric", "io.pragh.keys",
    "io.pragh.memory", "io.pragh.reclaim", "io.pragh.runtime", "io.pragh.values", "org.agrona.."})
package io.pragh.store;

import io.pragh.MayDependOn;
