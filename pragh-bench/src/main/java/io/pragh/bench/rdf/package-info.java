/**
 * The RDF benchmark of paper Fig. 16 ({@code ./pragh bench rdf}), the Wukong+M experiment on our RDF store: LUBM-N
 * from pragh-rdf's generator loaded into a fresh embedded cluster per mode, a mix of six SPARQL query classes (LUBM
 * L1-L5 and L7 re-bound to Zipf 0.99 start vertices, {@link io.pragh.bench.rdf.LubmMix}) answered by pragh-rdf's
 * engine on each start vertex's home machine, through the traversal benchmark's mode machinery (its
 * {@link io.pragh.bench.traversal.ModeSession}, cluster set-up, report and charts). With {@code --fabric tcp} each
 * mode runs on server processes instead, loaded through a client port, each query POSTed to its start vertex's
 * home's {@code /sparql} ({@link io.pragh.bench.rdf.SparqlAtHome}). Depends on the traversal
 * benchmark and its deploy package, the shard baseline's placement, the workload's Zipf law, the charts, pragh-rdf,
 * the Gremlin provider's embedded and client-port graph stores and its load sizing (one parse sizes every mode's
 * cluster), the core's embedded cluster and location cache (pre-touched alone), pragh-server's free ports, cluster
 * file and client RPC, and Jena's RDF languages and result reader.
 */
@MayDependOn({"io.pragh.bench.traversal", "io.pragh.bench.traversal.deploy", "io.pragh.bench.shard",
    "io.pragh.bench.workload", "io.pragh.bench.charts", "io.pragh.rdf.lubm", "io.pragh.rdf.load",
    "io.pragh.rdf.sparql", "io.pragh.rdf.store", "io.pragh.gremlin.structure", "io.pragh.gremlin.storage",
    "io.pragh.keys", "io.pragh.embedded",
    "io.pragh.coordinator", "io.pragh.store", "io.pragh.cache", "io.pragh.gremlin.load", "io.pragh.fabric.inprocess", "io.pragh.gremlin.distributed",
    "io.pragh.server.cli", "io.pragh.server.config", "io.pragh.server.rpc", "org.apache.jena.."})
package io.pragh.bench.rdf;

import io.pragh.MayDependOn;
