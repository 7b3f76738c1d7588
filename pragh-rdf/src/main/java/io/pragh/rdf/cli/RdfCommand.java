package io.pragh.rdf.cli;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.rdf.lubm.LubmGenerator;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./pragh rdf load FILE}: loads an N-Triples or Turtle file into a new embedded cluster and reports what and
 * how fast; {@code ./pragh rdf lubm --universities N --out FILE}: writes LUBM data as N-Triples.
 *
 * <p>Example: {@code ./pragh rdf lubm --universities 1 --out lubm-1.nt && ./pragh rdf load lubm-1.nt}
 */
public final class RdfCommand {
    static final String USAGE = String.join("\n",
        "usage: ./pragh rdf load FILE [--machines N] [--set KEY=VALUE]",
        "       ./pragh rdf lubm [--universities N] [--seed S] [--out FILE]",
        "  load FILE            an N-Triples (.nt) or Turtle (.ttl) file, into an embedded cluster of N machines (default 4)",
        "  --set KEY=VALUE      a store setting, e.g. pragh.keysPerMachine=8000000 (default: sized from the file)",
        "  lubm                 LUBM data (Univ-Bench) as N-Triples: N universities (default 1), seed S (default 0),",
        "                       to FILE (default: standard output)");

    private RdfCommand() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println(USAGE);
            return;
        }
        try {
            switch (args[0]) {
                case "load" -> load(args);
                case "lubm" -> lubm(args);
                default -> throw new IllegalArgumentException("unknown rdf command '" + args[0] + "'");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("pragh rdf: " + e.getMessage());
            System.exit(2);
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

    private static void load(final String[] args) throws Exception {
        Path file = null;
        int machines = PraghGraph.DEFAULT_MACHINES;
        final List<String[]> settings = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--machines" -> machines = Integer.parseInt(value(args, ++i, "--machines"));
                case "--set" -> settings.add(setting(value(args, ++i, "--set")));
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
        try (EmbeddedRdf loaded = EmbeddedRdf.load(file, machines, settings, System.err)) {
            final var r = loaded.loaded;
            System.out.printf("loaded %s: %,d triples, %,d terms into %d machines in %.2f s (parse %.2f s, write"
                    + " %.2f s): %,.0f triples/s%n", file, r.triples(), r.newTerms(), machines,
                (r.parseNanos() + r.writeNanos()) / 1e9, r.parseNanos() / 1e9, r.writeNanos() / 1e9,
                r.triplesPerSecond());
        } catch (IllegalArgumentException e) {
            System.err.println("pragh rdf load: " + e.getMessage());
            System.exit(1);
        }
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
