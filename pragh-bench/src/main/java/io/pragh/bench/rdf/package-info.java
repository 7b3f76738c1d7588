/**
 * The RDF benchmark of paper Fig. 16 ({@code ./pragh bench rdf}), the Wukong+M experiment on our RDF store: LUBM-N
 * from pragh-rdf's generator loaded into a fresh embedded cluster per mode, a mix of six SPARQL query classes (LUBM
 * L1-L5 and L7 re-bound to Zipf 0.99 start vertices, {@link io.pragh.bench.rdf.LubmMix}) answered by pragh-rdf's
 * engine on each start vertex's home machine, through the traversal benchmark's mode machinery (its
 * {@link io.pragh.bench.traversal.ModeSession}, cluster set-up, report and charts). Depends on the traversal
 * benchmark and its deploy package, the shard baseline's placement, the workload's Zipf law, the charts, pragh-rdf,
 * the Gremlin provider's embedded graph store, the core's embedded cluster, and Jena's RDF languages.
 */
@MayDependOn({"io.pragh.bench.traversal", "io.pragh.bench.traversal.deploy", "io.pragh.bench.shard",
    "io.pragh.bench.workload", "io.pragh.bench.charts", "io.pragh.rdf.lubm", "io.pragh.rdf.load",
    "io.pragh.rdf.sparql", "io.pragh.rdf.store", "io.pragh.gremlin.structure", "io.pragh.embedded",
    "io.pragh.coordinator", "io.pragh.store", "io.pragh.fabric.inprocess", "org.apache.jena.."})
package io.pragh.bench.rdf;

import io.pragh.MayDependOn;
