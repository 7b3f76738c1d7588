package io.pragh.rdf.cli;

import io.pragh.gremlin.distributed.ClientPortGraphStore;
import io.pragh.gremlin.distributed.ClusterFileLoad;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.store.RdfStore;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.MachineClient;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./pragh rdf load FILE --server HOST:PORT}: an N-Triples or Turtle file into a running multi-process cluster
 * through one machine's client port ({@link ClientPortGraphStore}: batched GETs of the dictionary, UPDATES frames of
 * APPENDs for the values, which that machine forwards to their homes), with the local loader's progress bars and its
 * errors (a bad line names the file, line and column, before anything is written). The client port asks for the
 * cluster secret, read from the cluster file ({@code --config FILE}, or {@code --dir DIR} of
 * {@code ./pragh cluster start}).
 *
 * <p>Example: {@code RdfLoad.Result r = ClusterRdfLoad.load(Path.of("lubm-1.nt"), "127.0.0.1:7500", Path.of("c/cluster.yaml"), 65536, System.err);}
 */
final class ClusterRdfLoad {
    /** How long one request may take: a batch of updates forwarded to every machine of a loaded cluster. */
    static final int TIMEOUT_MILLIS = 60_000;

    private ClusterRdfLoad() {
    }

    /** Loads {@code file} through {@code server}'s client port, with {@code clusterFile}'s secret and TLS. */
    static RdfLoad.Result load(final Path file, final String server, final Path clusterFile, final int segmentEntries,
                               final PrintStream progress) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("cannot load " + file + ": no such file");
        }
        final var lang = RdfLoad.languageOf(file);
        final ClusterConfig config = ClusterConfig.load(clusterFile);
        final MachineClient client = new MachineClient(ClusterFileLoad.address(server), TIMEOUT_MILLIS, config.secret(),
            config.tls());
        try (GraphStore store = new ClientPortGraphStore(client)) {
            final PhaseBars bars = new PhaseBars(progress, file.getFileName().toString());
            final RdfLoad.Result r = RdfLoad.into(new RdfStore(store)).progress(bars).segmentEntries(segmentEntries)
                .load(file, lang);
            bars.finish();
            return r;
        }
    }
}
