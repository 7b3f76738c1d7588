/**
 * Memory footprint figures: computed from the regions' own geometry (bytes per key of the key region), and measured
 * on a loaded graph (bytes per edge, heap and off-heap). Depends on {@code io.pragh.keys}, {@code io.pragh.store}
 * and the graph provider.
 */
@MayDependOn({"io.pragh", "io.pragh.bench.workload", "io.pragh.embedded", "io.pragh.gremlin.load",
    "io.pragh.gremlin.structure", "io.pragh.keys", "io.pragh.memory", "io.pragh.store", "org.apache.commons..", "org.apache.tinkerpop.."})
package io.pragh.bench.footprint;

import io.pragh.MayDependOn;
