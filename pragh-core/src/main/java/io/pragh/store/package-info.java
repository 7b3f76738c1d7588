/**
 * The data plane of one machine: GET (LOOKUP, cache, header check), updates with check-and-forward (PUT and any
 * read-modify-write through a {@link io.pragh.store.ValueMutator}), and the store's two-sided messages.
 * Depends on the layers below it: address, memory, keys, values, cache, fabric, reclaim.
 */
package io.pragh.store;
