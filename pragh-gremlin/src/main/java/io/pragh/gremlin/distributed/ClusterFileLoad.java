package io.pragh.gremlin.distributed;

import io.pragh.gremlin.server.GraphLoader;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.MachineClient;
import org.apache.commons.configuration2.BaseConfiguration;

import java.io.File;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./pragh load FILE --server HOST:PORT (--config cluster.yaml | --dir DIR)}: an edge list, GraphML or GraphSON
 * file into a running multi-process cluster through one machine's client port ({@link ClientPortGraphStore}: the
 * graph's writes travel in UPDATES frames, which that machine forwards to their homes), with the local loader's
 * progress bars and errors: an edge list is parsed whole first, so a bad line names the file and line before anything
 * is written. The client port asks for the cluster secret, read from the cluster file ({@code --config}, or
 * {@code --dir} of {@code ./pragh cluster start}). What it loads is the served graph every machine's Gremlin port
 * answers from.
 *
 * <p>Example: {@code ./pragh load edges.txt --server 127.0.0.1:7500 --dir /tmp/pragh}
 */
public final class ClusterFileLoad {
    static final String USAGE = String.join("\n",
        "usage: ./pragh load FILE --server HOST:PORT (--config cluster.yaml | --dir DIR) [--format F]",
        "  FILE                 an edge list ('source target [label]' per line), GraphML (.xml/.graphml) or GraphSON (.json)",
        "  --server HOST:PORT   a machine's client port: the file goes into the running cluster through it",
        "  --config FILE        the cluster file, for the cluster's secret (or --dir DIR of ./pragh cluster start)",
        "  --format F           edgelist, graphml or graphson (default: from FILE's extension; edgelist otherwise)");
    /** How long one request may take: a frame of updates forwarded to every machine of a loaded cluster. */
    static final int TIMEOUT_MILLIS = 60_000;

    private ClusterFileLoad() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; 0 when loaded, 1 when the load failed, 2 for a wrong command line. */
    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        File file = null;
        String server = null;
        String format = null;
        Path clusterFile = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--help", "-h" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    case "--server" -> server = value(args, ++i, "--server");
                    case "--config" -> clusterFile = Path.of(value(args, ++i, "--config"));
                    case "--dir" -> clusterFile = Path.of(value(args, ++i, "--dir")).resolve("cluster.yaml");
                    case "--format" -> format = value(args, ++i, "--format");
                    default -> {
                        if (args[i].startsWith("--") || file != null) {
                            throw new IllegalArgumentException("unexpected argument '" + args[i] + "' (with --server,"
                                + " --machines and --set do not apply: the cluster is sized already)");
                        }
                        file = new File(args[i]);
                    }
                }
            }
            if (file == null || server == null) {
                throw new IllegalArgumentException(file == null ? "no FILE given" : "no --server HOST:PORT given");
            }
            if (clusterFile == null) {
                throw new IllegalArgumentException("--server needs the cluster's secret: --config cluster.yaml, or"
                    + " --dir DIR of ./pragh cluster start");
            }
        } catch (IllegalArgumentException e) {
            err.println("pragh load: " + e.getMessage() + " (./pragh load --help lists the options)");
            return 2;
        }
        try {
            final long start = System.nanoTime();
            final long edges = load(file, format, server, clusterFile, err);
            final double seconds = (System.nanoTime() - start) / 1e9;
            out.printf("loaded %s into the cluster at %s in %.2f s%s%n", file, server, seconds, edges < 0 ? ""
                : String.format(": %,d edges, %,.0f edges/s", edges, edges / seconds));
            return 0;
        } catch (Exception e) {
            err.println("pragh load: " + e.getMessage());
            return 1;
        }
    }

    /** Loads {@code file} through {@code server}'s client port; returns its edges, or -1 when not counted. */
    static long load(final File file, final String format, final String server, final Path clusterFile,
                     final PrintStream progress) throws Exception {
        if (!file.isFile()) {
            throw new IllegalArgumentException("cannot load " + file + ": no such file");
        }
        if (!Files.isRegularFile(clusterFile)) {
            throw new IllegalArgumentException("no cluster file at " + clusterFile);
        }
        final ClusterConfig config = ClusterConfig.load(clusterFile);
        final MachineClient client = new MachineClient(address(server), TIMEOUT_MILLIS, config.secret(), config.tls());
        final ClientPortGraphStore store = new ClientPortGraphStore(client);
        final BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, store.machines());
        try (PraghGraph graph = PraghGraph.open(conf, store)) {
            return new GraphLoader(progress).loadUncounted(graph, file, format);
        }
    }

    /** {@code HOST:PORT}, or an error naming what is wrong with it (pragh-rdf's cluster load reads it so too). */
    public static InetSocketAddress address(final String hostPort) {
        final int colon = hostPort.lastIndexOf(':');
        try {
            if (colon > 0) {
                final int port = Integer.parseInt(hostPort.substring(colon + 1));
                if (port >= 1 && port <= 65535) {
                    return new InetSocketAddress(hostPort.substring(0, colon), port);
                }
            }
        } catch (NumberFormatException e) {
            // Refused below.
        }
        throw new IllegalArgumentException("--server " + hostPort + ": expected HOST:PORT, a machine's client port");
    }

    private static String value(final String[] args, final int i, final String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
