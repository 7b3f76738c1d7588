package io.pragh.bench;

import io.pragh.bench.footprint.GraphFootprint;
import io.pragh.bench.footprint.KeyRegionFootprint;
import io.pragh.bench.paper.PaperCommand;
import io.pragh.bench.pushdown.JanusGraphComparison;
import io.pragh.bench.rdf.RdfBenchCommand;
import io.pragh.bench.soak.SoakCommand;
import io.pragh.bench.traversal.TraversalCommand;
import io.pragh.bench.traversal.scenarios.DynamicWorkload;
import io.pragh.bench.traversal.scenarios.MechanismTimeline;
import io.pragh.bench.traversal.scenarios.PutLatencyCdf;
import io.pragh.bench.traversal.scenarios.ScenarioCommand;
import io.pragh.bench.traversal.scenarios.ScopeSweep;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * Entry point of {@code ./pragh bench}: dispatches to the traversal benchmark, the JMH microbenchmarks and the key
 * region footprint table.
 *
 * <pre>{@code
 * ./pragh bench paper --out target/paper --scale 12 --machines 4
 * ./pragh bench jmh GetLatency -f 1 -wi 2 -i 3
 * ./pragh bench traversal --machines 4 --scale 12 --duration 5
 * ./pragh bench rdf --universities 2 --machines 8
 * ./pragh bench scope-sweep --machines 4 --scale 16 --scopes 10,12,14
 * ./pragh bench keys
 * ./pragh bench footprint --scale 16
 * ./pragh bench views --out target/views
 * ./pragh bench soak --minutes 2
 * ./pragh bench farmem --scale 14 --out target/farmem
 * ./pragh bench janusgraph -f 1 -wi 5 -w 2 -i 5 -r 2
 * }</pre>
 */
public final class BenchCommand {
    private BenchCommand() {
    }

    static void usage(PrintStream out) {
        out.println("usage: ./pragh bench <benchmark> [options]");
        out.println();
        out.println("  paper --out DIR [--scale S --machines N]");
        out.println("                         the paper's section 6 in one command: Table 1 and Figs. 10-16, one JSON");
        out.println("                         and one PNG per figure, the paper's beside ours (--help lists the flags)");
        out.println("  traversal [flags]      the paper's traversal benchmark (section 6); --help lists the flags");
        out.println("  rdf [flags]            the Wukong+M experiment (Fig. 16): a LUBM mix of 6 SPARQL query classes per mode");
        out.println("  scope-sweep [flags]    traversal modes at scopes 2^10..2^16 (paper Fig. 11)");
        out.println("  put-cdf [flags]        PUT latency CDF with and without migration, 50/50 mix (Fig. 12)");
        out.println("  mechanisms [flags]     eager vs deferred migration throughput timeline (Fig. 14)");
        out.println("  dynamic [flags]        timeline as the scope of start vertices moves (Fig. 15)");
        out.println("  jmh [regex] [jmh opts] JMH microbenchmarks (e.g. 'jmh GetLatency -f 1 -wi 2 -i 3'; -h for JMH's options)");
        out.println("  views [flags]          Concerto's road-traffic case: view event handler latency vs a polling client");
        out.println("                         (JSON and PNG; --help lists the flags)");
        out.println("  kcore [--scale S --k K --machines N --out FILE]  k-core time of an RMAT graph, checked against a");
        out.println("                         plain in-memory peeling");
        out.println("  hotspot [--seconds S --readers T --machines N --out FILE]  view-driven hotspot migration:");
        out.println("                         remote reads of a hot view's members before and after a round");
        out.println("  keys [key counts]      bytes per key the key region costs");
        out.println("  footprint [--scale N] [--batch E]  bytes per edge of a property-less RMAT graph in PraghGraph (heap + off-heap)");
        out.println("  rmat-edges --out FILE [--scale N] [--edge-factor F] [--seed S] [--edges MAX]");
        out.println("                         an RMAT graph's directed edges as an edge list, for ./pragh load");
        out.println("  farmem [flags]         BFS and PageRank over far memory (Fargraph): all-local, tiering with chunked");
        out.println("                         READs, on-demand reads, at far ratios 0..0.95, and a chunk-size sweep");
        out.println("  soak [--minutes N]     chaos workload under every fault, its histories checked for");
        out.println("                         linearizability; exit status 1 on a violation (--help lists the flags)");
        out.println("  janusgraph [--scale N] [--dir DIR] [jmh opts]");
        out.println("                         g.V(x).out().out().count() on JanusGraph 1.1.0 in its own JVM, same graph");
        out.println("                         and start vertices as 'jmh Pushdown' (see pragh-bench/PUSHDOWN.md)");
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args));
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            usage(System.err);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "jmh" -> {
                // JMH reads the benchmark list that its annotation processor wrote into target/classes at build time.
                org.openjdk.jmh.Main.main(rest);
                return 0;
            }
            case "paper" -> {
                return PaperCommand.run(rest, System.out, System.err);
            }
            case "traversal" -> {
                return TraversalCommand.run(rest, System.out, System.err);
            }
            case "rdf" -> {
                return RdfBenchCommand.run(rest, System.out, System.err);
            }
            case "scope-sweep" -> {
                return ScenarioCommand.run(new ScopeSweep(), rest, System.out, System.err);
            }
            case "put-cdf" -> {
                return ScenarioCommand.run(new PutLatencyCdf(), rest, System.out, System.err);
            }
            case "mechanisms" -> {
                return ScenarioCommand.run(new MechanismTimeline(), rest, System.out, System.err);
            }
            case "dynamic" -> {
                return ScenarioCommand.run(new DynamicWorkload(), rest, System.out, System.err);
            }
            case "janusgraph" -> {
                return JanusGraphComparison.run(rest, System.out, System.err);
            }
            case "farmem" -> {
                return io.pragh.bench.farmem.FarmemBench.run(rest, System.out, System.err);
            }
            case "soak" -> {
                return SoakCommand.run(rest, System.out, System.err);
            }
            case "kcore" -> {
                return io.pragh.bench.views.KCoreBench.run(rest, System.out, System.err);
            }
            case "hotspot" -> {
                return io.pragh.bench.views.HotspotBench.run(rest, System.out, System.err);
            }
            case "views" -> {
                return io.pragh.bench.views.ViewsBench.run(rest, System.out, System.err);
            }
            case "footprint" -> {
                return GraphFootprint.run(rest, System.out, System.err);
            }
            case "rmat-edges" -> {
                return io.pragh.bench.workload.RmatEdgeList.run(rest, System.out, System.err);
            }
            case "keys" -> {
                KeyRegionFootprint.main(rest);
                return 0;
            }
            case "help", "-h", "--help" -> {
                usage(System.out);
                return 0;
            }
            default -> {
                System.err.println("pragh bench: unknown benchmark '" + args[0] + "'");
                usage(System.err);
                return 2;
            }
        }
    }
}
