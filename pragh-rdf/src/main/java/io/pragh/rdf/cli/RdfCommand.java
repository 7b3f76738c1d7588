package io.pragh.rdf.cli;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.store.TermList;
import io.pragh.rdf.store.TermSegments;
import io.pragh.store.StoreConfig;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./pragh rdf load FILE}: loads an N-Triples or Turtle file into a new embedded cluster, or with
 * {@code --server HOST:PORT} into a running one ({@link ClusterRdfLoad}), and reports what and how fast;
 * {@code ./pragh rdf lubm --universities N --out FILE}: writes LUBM data as N-Triples.
 *
 * <p>Example: {@code ./pragh rdf lubm --universities 1 --out lubm-1.nt && ./pragh rdf load lubm-1.nt}
 */
public final class RdfCommand {
    /** The largest {@code --segment-entries}: a segment is one value, kept to half the 64 MiB a store takes in one. */
    static final int MAX_SEGMENT_FLAG = (StoreConfig.DEFAULT_MAX_VALUE_BYTES >> 1) / TermList.ENTRY_BYTES;

    static final String USAGE = String.join("\n",
        "usage: ./pragh rdf load FILE [--machines N] [--set KEY=VALUE] [--segment-entries N]",
        "       ./pragh rdf load FILE --server HOST:PORT (--config cluster.yaml | --dir DIR)",
        "       ./pragh rdf lubm [--universities N] [--seed S] [--out FILE]",
        "  load FILE            an N-Triples (.nt) or Turtle (.ttl) file, into an embedded cluster of N machines (default 4)",
        "  --set KEY=VALUE      a store setting, e.g. pragh.keysPerMachine=8000000 (default: sized from the file)",
        "  --segment-entries N  ids of a sealed segment: a list longer than N (an index vertex's, a big class's) is",
        "                       written and appended to N ids at a time (default " + TermSegments.DEFAULT_SEGMENT_ENTRIES
            + ", 1.." + MAX_SEGMENT_FLAG + "); also with --server",
        "  --server HOST:PORT   into a running cluster instead, through that machine's client port; the cluster",
        "                       secret from its cluster file (--config) or ./pragh cluster start directory (--dir)",
        "  lubm                 LUBM data (Univ-Bench) as N-Triples: N universities (default 1), seed S (default 0),",
        "                       to FILE (default: standard output)");

    private RdfCommand() {
    }

    public static void main(final String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line; the exit status (0 done, 1 the load failed, 2 a bad command line). */
    static int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            out.println(USAGE);
            return 0;
        }
        try {
            switch (args[0]) {
                case "load" -> {
                    return load(args, out, err);
                }
                case "lubm" -> lubm(args);
                default -> throw new IllegalArgumentException("unknown rdf command '" + args[0] + "'");
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("pragh rdf: " + e.getMessage());
            return 2;
        }
    }

    private static void lubm(final String[] args) throws Exception {
        int universities = 1;
        long seed = 0;
        String out = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--universities" -> universities = Integer.parseInt(value(args, ++i, "--universities"));
                case "--seed" -> seed = Long.parseLong(value(args, ++i, "--seed"));
                case "--out" -> out = value(args, ++i, "--out");
                default -> throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
        }
        final long start = System.nanoTime();
        try (Writer w = out == null ? new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)
            : Files.newBufferedWriter(Path.of(out), StandardCharsets.UTF_8)) {
            final long triples = new LubmGenerator(universities, seed).write(w);
            System.err.printf("wrote LUBM-%d (seed %d): %,d triples%s in %.2f s%n", universities, seed, triples,
                out == null ? "" : " to " + out, (System.nanoTime() - start) / 1e9);
        }
    }

    private static int load(final String[] args, final PrintStream out, final PrintStream err) throws Exception {
        Path file = null;
        Integer machines = null;
        String server = null;
        Path clusterFile = null;
        int segmentEntries = TermSegments.DEFAULT_SEGMENT_ENTRIES;
        final List<String[]> settings = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--machines" -> machines = Integer.parseInt(value(args, ++i, "--machines"));
                case "--set" -> settings.add(setting(value(args, ++i, "--set")));
                case "--server" -> server = value(args, ++i, "--server");
                case "--config" -> clusterFile = Path.of(value(args, ++i, "--config"));
                case "--segment-entries" -> segmentEntries = segmentEntries(value(args, ++i, "--segment-entries"));
                case "--dir" -> clusterFile = Path.of(value(args, ++i, "--dir")).resolve("cluster.yaml");
                default -> {
                    if (args[i].startsWith("--") || file != null) {
                        throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                    }
                    file = Path.of(args[i]);
                }
            }
        }
        if (file == null) {
            throw new IllegalArgumentException("no FILE given");
        }
        if (server != null && (machines != null || !settings.isEmpty())) {
            throw new IllegalArgumentException("--machines and --set size an embedded cluster: not with --server");
        }
        if (server != null && clusterFile == null) {
            throw new IllegalArgumentException("--server needs the cluster's secret: --config cluster.yaml, or --dir"
                + " DIR of ./pragh cluster start");
        }
        if (server == null && clusterFile != null) {
            throw new IllegalArgumentException("--config and --dir go with --server HOST:PORT");
        }
        if (server != null) {
            io.pragh.gremlin.distributed.ClusterFileLoad.address(server); // a bad HOST:PORT is a bad command line, before the file is read
        }
        try {
            final RdfLoad.Result r;
            final String into;
            String memory = null;
            if (server != null) {
                r = ClusterRdfLoad.load(file, server, clusterFile, segmentEntries, err);
                into = "the cluster at " + server;
            } else {
                final int n = machines == null ? PraghGraph.DEFAULT_MACHINES : machines;
                try (EmbeddedRdf loaded = EmbeddedRdf.load(file, n, settings, segmentEntries, err)) {
                    r = loaded.loaded;
                    memory = loaded.memory();
                }
                into = n + " machines";
            }
            out.printf("loaded %s: %,d triples, %,d terms into %s in %.2f s (parse %.2f s, write %.2f s): %,.0f"
                    + " triples/s%n", file, r.triples(), r.newTerms(), into, (r.parseNanos() + r.writeNanos()) / 1e9,
                r.parseNanos() / 1e9, r.writeNanos() / 1e9, r.triplesPerSecond());
            if (memory != null) {
                out.println(memory);
            }
            return 0;
        } catch (IllegalArgumentException | io.pragh.server.config.ConfigException
                 | io.pragh.server.rpc.ClientException e) {
            err.println("pragh rdf load: " + e.getMessage());
            return 1;
        }
    }

    /** A {@code --segment-entries} value, refused naming the flag unless a whole number in 1..MAX_SEGMENT_FLAG. */
    static int segmentEntries(final String value) {
        final long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--segment-entries " + value + ": not a whole number");
        }
        if (n < 1 || n > MAX_SEGMENT_FLAG) {
            throw new IllegalArgumentException("--segment-entries " + value + ": must be 1.." + MAX_SEGMENT_FLAG
                + " ids (a segment is one value of at most " + (StoreConfig.DEFAULT_MAX_VALUE_BYTES >> 21) + " MiB)");
        }
        return (int) n;
    }

    static String[] setting(final String kv) {
        final int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--set " + kv + ": expected KEY=VALUE");
        }
        return new String[] {kv.substring(0, eq), kv.substring(eq + 1)};
    }

    static String value(final String[] args, final int i, final String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
