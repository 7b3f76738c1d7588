/**
 * Memory footprint figures: computed from the regions' own geometry (bytes per key of the key region), and measured
 * on a loaded graph (bytes per edge, heap and off-heap). Depends on {@code io.pragh.keys}, {@code io.pragh.store}
 * and the graph provider.
 */
package io.pragh.bench.footprint;
