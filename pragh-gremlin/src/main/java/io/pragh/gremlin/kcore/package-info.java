/**
 * k-core on the graph or a view ({@link io.pragh.gremlin.kcore.KCore}, and {@code g.call("pragh.kcore", [...])}):
 * parallel peeling in synchronous rounds, one task per home machine per round, each reading and peeling the
 * vertices homed where it runs (the embedded cluster's placement says where a vertex is homed); the result is written as a view or a vertex property.
 *
 * <p>May depend on {@code io.pragh.gremlin.view}, the provider's structure and storage packages and TinkerPop.
 */
@MayDependOn({"io.pragh.embedded", "io.pragh.gremlin.storage", "io.pragh.gremlin.structure",
    "io.pragh.gremlin.view", "org.apache.tinkerpop.."})
package io.pragh.gremlin.kcore;

import io.pragh.MayDependOn;
