package io.pragh.bench.pushdown;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pragh.gremlin.structure.PraghGraph;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./pragh bench janusgraph [--scale N] [--dir DIR] [JMH options]}: the JanusGraph side of the pushdown
 * comparison, which cannot run in this JVM (JanusGraph 1.1.0 is on TinkerPop 3.7.3, PraghGraph on 3.8.1). Exports the
 * RMAT graph as an edge list, loads it into PraghGraph to write PraghGraph's two-hop counts, builds the standalone
 * Maven project {@code pragh-bench/janusgraph} and runs its JMH benchmark in a new JVM, which loads the same edge list
 * into JanusGraph in-memory and refuses to time anything unless its counts equal PraghGraph's; the two count files are
 * compared once more here.
 *
 * <pre>{@code
 * ./pragh bench janusgraph -f 1 -wi 5 -w 2 -i 5 -r 2
 * }</pre>
 */
public final class JanusGraphComparison {
    static final Path PROJECT = Path.of("pragh-bench", "janusgraph");
    static final Path DEFAULT_DIR = Path.of("pragh-bench", "target", "pushdown");
    static final String BENCHMARK = "io.pragh.bench.janusgraph.JanusGraphPushdownBenchmark";

    private JanusGraphComparison() {
    }

    /** Runs the comparison; returns the exit status (2 for bad flags, 1 when a step fails). */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        int scale = PushdownWorkload.DEFAULT_SCALE;
        Path dir = DEFAULT_DIR;
        List<String> jmh = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scale" -> {
                    if (i + 1 == args.length) {
                        err.println("pragh bench janusgraph: --scale needs a value");
                        return 2;
                    }
                    try {
                        scale = Integer.parseInt(args[++i]);
                    } catch (NumberFormatException e) {
                        err.println("pragh bench janusgraph: --scale must be an integer, got '" + args[i] + "'");
                        return 2;
                    }
                }
                case "--dir" -> {
                    if (i + 1 == args.length) {
                        err.println("pragh bench janusgraph: --dir needs a value");
                        return 2;
                    }
                    dir = Path.of(args[++i]);
                }
                default -> jmh.add(args[i]);
            }
        }
        Path pom = PROJECT.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            err.println("pragh bench janusgraph: " + pom.toAbsolutePath() + " not found: run from the repository root (./pragh does)");
            return 1;
        }
        dir = dir.toAbsolutePath();

        PushdownWorkload workload = new PushdownWorkload(scale, PushdownWorkload.SEED);
        workload.writeEdgeList(dir.resolve("edges.txt"));
        out.printf(Locale.ROOT, "RMAT scale %d: %d vertices, %d edges written to %s%n", scale,
            workload.graph().vertexCount(), workload.graph().edgeCount(), dir.resolve("edges.txt"));
        TwoHopCounts pragh = praghCounts(workload, out);
        pragh.requireSameAs(workload.expectedCounts());
        Path praghFile = dir.resolve("pragh-counts.txt");
        pragh.write(praghFile);

        out.println("building " + PROJECT + " (JanusGraph 1.1.0, TinkerPop 3.7.3) ...");
        int built;
        try {
            built = new ProcessBuilder("mvn", "-B", "-ntp", "-q", "-f", pom.toString(), "package").inheritIO().start().waitFor();
        } catch (IOException e) {
            err.println("pragh bench janusgraph: cannot run mvn to build " + pom + ": " + e.getMessage());
            return 1;
        }
        if (built != 0) {
            err.println("pragh bench janusgraph: building " + pom + " failed (mvn exit status " + built + ")");
            return 1;
        }
        Path json = dir.resolve("janusgraph-jmh.json");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(moduleOpenings());
        command.add("-cp");
        command.add(PROJECT.resolve("target/classes").toAbsolutePath() + java.io.File.pathSeparator
            + Files.readString(PROJECT.resolve("target/classpath.txt"), StandardCharsets.UTF_8).trim());
        command.addAll(List.of("org.openjdk.jmh.Main", BENCHMARK, "-foe", "true", "-p", "dir=" + dir,
            "-rf", "json", "-rff", json.toString()));
        command.addAll(jmh);
        int ran = new ProcessBuilder(command).inheritIO().start().waitFor();
        if (ran != 0) {
            err.println("pragh bench janusgraph: the JanusGraph benchmark failed (exit status " + ran + ")");
            return 1;
        }
        TwoHopCounts janus = TwoHopCounts.read("JanusGraph", dir.resolve("janusgraph-counts.txt"));
        pragh.requireSameAs(janus);
        out.printf(Locale.ROOT, "%nPraghGraph and JanusGraph agree on all %d two-hop counts (%s, %s)%n", pragh.size(),
            praghFile, dir.resolve("janusgraph-counts.txt"));
        if (Files.isRegularFile(json)) {
            out.println(median(json));
        }
        return 0;
    }

    private static TwoHopCounts praghCounts(PushdownWorkload workload, PrintStream out) {
        try (PraghGraph graph = PraghGraphs.open()) {
            out.printf(Locale.ROOT, "PraghGraph (%s) loaded in %.1f s%n", PraghGraphs.describe(),
                workload.loadInto(graph, PraghGraphs.LOAD_THREADS));
            return workload.count("PraghGraph", graph.traversal());
        } catch (Exception e) {
            throw new IllegalStateException("PraghGraph failed: " + e.getMessage(), e);
        }
    }

    /** This JVM's --add-opens/--add-exports, which the benchmark JVM needs on Java 17 as much as this one. */
    private static List<String> moduleOpenings() {
        List<String> out = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens=") || a.startsWith("--add-exports=")) {
                out.add(a);
            }
        }
        return out;
    }

    /** The median JMH's SampleTime mode recorded, from its JSON result. */
    static String median(Path json) throws IOException {
        JsonNode results = new ObjectMapper().readTree(json.toFile());
        StringBuilder s = new StringBuilder();
        for (JsonNode r : results) {
            JsonNode metric = r.path("primaryMetric");
            s.append(String.format(Locale.ROOT, "%s: median %.1f %s over %d samples",
                r.path("benchmark").asText(), metric.path("scorePercentiles").path("50.0").asDouble(),
                metric.path("scoreUnit").asText(), sampleCount(metric)));
        }
        return s.toString();
    }

    private static long sampleCount(JsonNode metric) {
        long n = 0;
        for (JsonNode iteration : metric.path("rawDataHistogram")) {
            for (JsonNode pair : iteration) {
                for (JsonNode entry : pair) {
                    n += entry.path(1).asLong();
                }
            }
        }
        return n;
    }
}
