package io.pragh.bench.pushdown;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One system's answers to {@code g.V(x).out().out().count()} over the start vertices of a comparison. Systems are
 * compared answer by answer before any timing, so a figure never describes a wrong result. The file form (one
 * {@code "x count"} line per start vertex after a {@code #} comment naming the system) is what the JanusGraph side,
 * in its own JVM, reads and writes.
 *
 * <pre>{@code
 * TwoHopCounts tinker = workload.count("TinkerGraph", tinkerGraph.traversal());
 * tinker.requireSameAs(workload.expectedCounts());   // IllegalStateException naming each disagreement
 * tinker.write(Path.of("target/pushdown/tinkergraph-counts.txt"));
 * }</pre>
 */
public final class TwoHopCounts {
    /** Disagreements listed in full before the message summarises the rest. */
    private static final int LISTED = 8;

    private final String system;
    private final long[] starts;
    private final long[] counts;

    public TwoHopCounts(String system, long[] starts, long[] counts) {
        if (starts.length != counts.length) {
            throw new IllegalArgumentException(system + ": " + starts.length + " start vertices but " + counts.length + " counts");
        }
        this.system = system;
        this.starts = starts.clone();
        this.counts = counts.clone();
    }

    public String system() {
        return system;
    }

    public int size() {
        return starts.length;
    }

    public long start(int i) {
        return starts[i];
    }

    public long count(int i) {
        return counts[i];
    }

    /**
     * Throws unless {@code other} asked about the same start vertices, in the same order, and got the same counts; the
     * message names both systems and each start vertex they disagree on.
     */
    public void requireSameAs(TwoHopCounts other) {
        if (!Arrays.equals(starts, other.starts)) {
            throw new IllegalStateException(system + " and " + other.system + " were asked about different start vertices: "
                + Arrays.toString(starts) + " vs " + Arrays.toString(other.starts));
        }
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < starts.length; i++) {
            if (counts[i] != other.counts[i]) {
                wrong.add("x=" + starts[i] + ": " + counts[i] + " vs " + other.counts[i]);
            }
        }
        if (!wrong.isEmpty()) {
            String listed = String.join(", ", wrong.subList(0, Math.min(LISTED, wrong.size())))
                + (wrong.size() > LISTED ? " and " + (wrong.size() - LISTED) + " more" : "");
            throw new IllegalStateException(system + " and " + other.system + " disagree on g.V(x).out().out().count() for "
                + wrong.size() + " of " + starts.length + " start vertices (" + system + " vs " + other.system + "): " + listed);
        }
    }

    /** Writes the {@code "x count"} lines, replacing the file. */
    public void write(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("# g.V(x).out().out().count() on " + system + ": x count\n");
            for (int i = 0; i < starts.length; i++) {
                w.write(starts[i] + " " + counts[i] + "\n");
            }
        }
    }

    /** Reads a file {@link #write} wrote; a malformed line is reported with its number. */
    public static TwoHopCounts read(String system, Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("no two-hop counts at " + file.toAbsolutePath());
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        long[] starts = new long[lines.size()];
        long[] counts = new long[lines.size()];
        int n = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException("two fields expected");
                }
                starts[n] = Long.parseLong(parts[0]);
                counts[n] = Long.parseLong(parts[1]);
                n++;
            } catch (NumberFormatException e) {
                throw new IOException(file + " line " + (i + 1) + ": expected 'x count', got '" + line + "'");
            }
        }
        return new TwoHopCounts(system, Arrays.copyOf(starts, n), Arrays.copyOf(counts, n));
    }
}
