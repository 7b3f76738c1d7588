package io.pragh.bench.farmem;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Flags of {@code ./pragh bench farmem}.
 *
 * <pre>{@code
 * FarmemConfig c = FarmemConfig.parse(new String[] {"--scale", "14", "--out", "target/farmem"});
 * }</pre>
 *
 * @param scale         RMAT scale: 2^scale vertices, 16 edges per vertex
 * @param machines      compute machines
 * @param memoryNodes   memory nodes
 * @param ratios        far-memory ratios: the share of each compute machine's value bytes moved out
 * @param chunkSizes    chunk sizes of the sweep (bytes), at {@link #sweepRatio}
 * @param sweepRatio    the far ratio of the chunk sweep
 * @param chunkBytes    chunk size of the ratio runs
 * @param iterations    PageRank iterations
 * @param runs          timed runs per point (the median is reported), after two warm-up runs
 * @param remoteLatencyNs the in-process fabric's emulated remote latency (2 us, as the traversal benchmark)
 * @param out           directory of the JSON and PNG files
 */
public record FarmemConfig(int scale, int machines, int memoryNodes, List<Double> ratios, List<Integer> chunkSizes,
                           double sweepRatio, int chunkBytes, int iterations, int runs, long remoteLatencyNs, Path out) {
    static final String USAGE = """
        usage: ./pragh bench farmem [flags]
          --scale S            RMAT scale, 2^S vertices and 16 * 2^S edges (default 14)
          --machines N         compute machines (default 2)
          --memory-nodes N     memory nodes (default 1)
          --ratios R,R,...     far-memory ratios (default 0,0.25,0.5,0.75,0.95)
          --chunk-bytes B      chunk size of the ratio runs (default 262144)
          --chunks B,B,...     chunk sizes of the sweep (default 4096,16384,65536,262144,1048576,4194304)
          --sweep-ratio R      far ratio of the chunk sweep (default 0.75)
          --iterations N       PageRank iterations (default 5)
          --runs N             timed runs per point, median reported (default 5)
          --latency-ns N       emulated remote latency of the in-process fabric (default 2000)
          --out DIR            where farmem.json and the PNG charts go (default target/farmem)""";

    static FarmemConfig parse(String[] args) {
        int scale = 14;
        int machines = 2;
        int memoryNodes = 1;
        List<Double> ratios = List.of(0.0, 0.25, 0.5, 0.75, 0.95);
        List<Integer> chunks = List.of(4096, 16384, 65536, 262144, 1 << 20, 4 << 20);
        double sweepRatio = 0.75;
        int chunkBytes = 256 << 10;
        int iterations = 5;
        int runs = 5;
        long latency = 2_000;
        Path out = Path.of("target", "farmem");
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String v = args[++i];
            try {
                switch (flag) {
                    case "--scale" -> scale = Integer.parseInt(v);
                    case "--machines" -> machines = Integer.parseInt(v);
                    case "--memory-nodes" -> memoryNodes = Integer.parseInt(v);
                    case "--ratios" -> ratios = doubles(v);
                    case "--chunk-bytes" -> chunkBytes = Integer.parseInt(v);
                    case "--chunks" -> chunks = doubles(v).stream().map(Double::intValue).toList();
                    case "--sweep-ratio" -> sweepRatio = Double.parseDouble(v);
                    case "--iterations" -> iterations = Integer.parseInt(v);
                    case "--runs" -> runs = Integer.parseInt(v);
                    case "--latency-ns" -> latency = Long.parseLong(v);
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown flag " + flag);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes a number, got '" + v + "'");
            }
        }
        for (double r : ratios) {
            ratio("--ratios", r);
        }
        ratio("--sweep-ratio", sweepRatio);
        if (scale < 4 || scale > 22 || machines < 1 || memoryNodes < 1 || iterations < 1 || runs < 1 || latency < 0) {
            throw new IllegalArgumentException("need --scale in 4..22, --machines, --memory-nodes, --iterations and"
                + " --runs >= 1, --latency-ns >= 0");
        }
        return new FarmemConfig(scale, machines, memoryNodes, ratios, chunks, sweepRatio, chunkBytes, iterations, runs,
            latency, out);
    }

    private static void ratio(String flag, double r) {
        if (!(r >= 0 && r < 1)) {
            throw new IllegalArgumentException(flag + " takes ratios in [0, 1), got " + r);
        }
    }

    private static List<Double> doubles(String csv) {
        List<Double> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            out.add(Double.parseDouble(s.strip()));
        }
        return out;
    }

    Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scale", scale);
        m.put("machines", machines);
        m.put("memoryNodes", memoryNodes);
        m.put("ratios", ratios);
        m.put("chunkBytes", chunkBytes);
        m.put("chunkSizes", chunkSizes);
        m.put("sweepRatio", sweepRatio);
        m.put("iterations", iterations);
        m.put("runs", runs);
        m.put("remoteLatencyNs", remoteLatencyNs);
        return m;
    }
}
