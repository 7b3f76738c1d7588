package io.pragh.bench.workload;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./pragh bench rmat-edges}: writes the directed edges of an {@link RmatGenerator} graph as an edge list, one
 * {@code "src dst"} line per edge in generation order (duplicates and self loops kept, as generated), for
 * {@code ./pragh load} and {@code ./pragh serve --load}.
 *
 * <pre>{@code
 * ./pragh bench rmat-edges --scale 20 --edge-factor 10 --out /tmp/rmat-20x10.txt   # 10,485,760 edges
 * }</pre>
 */
public final class RmatEdgeList {
    private RmatEdgeList() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        int scale = 16;
        int edgeFactor = RmatGenerator.EDGE_FACTOR;
        long seed = 42;
        long limit = Long.MAX_VALUE;
        Path file = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--scale" -> scale = Integer.parseInt(value);
                case "--edge-factor" -> edgeFactor = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--edges" -> limit = Long.parseLong(value);
                case "--out" -> file = Path.of(value);
                default -> {
                    err.println("pragh bench rmat-edges: unknown option '" + args[i] + "' (--scale N --edge-factor F"
                        + " --seed S --edges MAX --out FILE)");
                    return 2;
                }
            }
            i++;
        }
        if (file == null) {
            err.println("pragh bench rmat-edges: --out FILE is required");
            return 2;
        }
        RmatGenerator g = new RmatGenerator(scale, edgeFactor, seed);
        long max = limit;
        long[] written = {0};
        byte[] line = new byte[32];
        try (OutputStream w = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            g.forEachEdge((src, dst) -> {
                if (written[0] >= max) {
                    return;
                }
                int n = decimal(src, line, 0);
                line[n++] = ' ';
                n = decimal(dst, line, n);
                line[n++] = '\n';
                try {
                    w.write(line, 0, n);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                written[0]++;
            });
        }
        out.printf("wrote %,d edges (RMAT scale %d, edge factor %d, seed %d) to %s%n", written[0], scale, edgeFactor,
            seed, file);
        return 0;
    }

    private static int decimal(int v, byte[] into, int at) {
        String s = Integer.toString(v);
        for (int i = 0; i < s.length(); i++) {
            into[at++] = (byte) s.charAt(i);
        }
        return at;
    }
}
