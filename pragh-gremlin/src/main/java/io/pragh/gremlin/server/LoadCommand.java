package io.pragh.gremlin.server;

import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./pragh load FILE}: bulk-loads an edge list, GraphML or GraphSON file into a new embedded cluster, with
 * progress bars on stderr, then prints what it loaded, how fast, and the memory it holds, and exits. A bad line stops
 * it with the file and line named and exit status 1, before anything is loaded. It measures a load; to serve what
 * it loads, {@code ./pragh serve --load FILE} loads the same way.
 *
 * <p>Example: {@code ./pragh load rmat-20.txt --machines 4}
 */
public final class LoadCommand {
    static final String USAGE = String.join("\n",
        "usage: ./pragh load FILE [options]",
        "       ./pragh load FILE --server HOST:PORT (--config cluster.yaml | --dir DIR) [--format F]",
        "                       into a running cluster instead, through that machine's client port",
        "  FILE                 an edge list ('source target [label]' per line), GraphML (.xml/.graphml) or GraphSON (.json)",
        "  --format F           edgelist, graphml or graphson (default: from FILE's extension; edgelist otherwise)",
        "  --machines N         machines of the embedded Pragh cluster (default 4)",
        "  --set KEY=VALUE      a graph setting, e.g. pragh.keysPerMachine=8000000 (default: sized from the file)",
        "  --help               this text");

    private LoadCommand() {
    }

    public static void main(final String[] args) throws Exception {
        File file = null;
        String format = null;
        int machines = PraghGraph.DEFAULT_MACHINES;
        final List<String[]> settings = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--help", "-h" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    case "--format" -> format = value(args, ++i, "--format");
                    case "--machines" -> machines = Integer.parseInt(value(args, ++i, "--machines"));
                    case "--set" -> {
                        final String kv = value(args, ++i, "--set");
                        final int eq = kv.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException("--set " + kv + ": expected KEY=VALUE");
                        }
                        settings.add(new String[] {kv.substring(0, eq), kv.substring(eq + 1)});
                    }
                    default -> {
                        if (args[i].startsWith("--") || file != null) {
                            throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                        }
                        file = new File(args[i]);
                    }
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("no FILE given");
            }
            FileLoad.Format.of(file, format);
        } catch (IllegalArgumentException e) {
            System.err.println("pragh load: " + e.getMessage() + " (./pragh load --help lists the options)");
            System.exit(2);
            return;
        }
        final Configuration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, machines);
        for (final String[] kv : settings) {
            conf.setProperty(kv[0], kv[1]);
        }
        final FileLoad.Loaded loaded;
        try {
            loaded = FileLoad.open(conf, file, format, System.err);
        } catch (Exception e) {
            System.err.println("pragh load: " + e.getMessage());
            System.exit(1);
            return;
        }
        try (PraghGraph graph = loaded.graph()) {
            final OffHeapUse use = graph.backingStore().offHeapUse();
            System.out.printf("loaded %s: %,d vertices, %,d edges into %d machines in %.2f s (read %.2f s, write %.2f s;"
                    + " opening the cluster %.2f s more): %,.0f edges/s%n", file, loaded.vertices() >= 0
                    ? loaded.vertices() : graph.traversal().V().count().next(), loaded.edges(), machines,
                (loaded.parseNanos() + loaded.writeNanos()) / 1e9, loaded.parseNanos() / 1e9,
                loaded.writeNanos() / 1e9, loaded.openNanos() / 1e9, loaded.edgesPerSecond());
            System.out.printf("off-heap: %,d bytes used (keys %,d, values %,d, garbage %,d) of %,d reserved%n",
                use.usedBytes(), use.keyBytes(), use.valueBytes(), use.garbageBytes(), use.reservedBytes());
            System.out.printf("settings: %s=%s %s=%s%n", EmbeddedGraphStore.KEYS, conf.getProperty(EmbeddedGraphStore.KEYS),
                EmbeddedGraphStore.VALUE_BYTES, conf.getProperty(EmbeddedGraphStore.VALUE_BYTES));
        }
    }

    private static String value(final String[] args, final int i, final String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
