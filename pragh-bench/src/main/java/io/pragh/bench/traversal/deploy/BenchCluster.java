package io.pragh.bench.traversal.deploy;

import io.pragh.fabric.FabricStats;

/**
 * The cluster one benchmark mode runs on: an {@link EmbeddedBenchCluster} in this JVM or a
 * {@link ProcessBenchCluster} of server processes. Client threads each open a {@link QueryPath}; the benchmark
 * reads the fabric statistics summed over the machines and controls migration through it.
 *
 * <pre>{@code
 * try (BenchCluster c = EmbeddedBenchCluster.start(spec)) {
 *     FabricStats.Snapshot s = c.stats();
 * }
 * }</pre>
 */
public interface BenchCluster extends AutoCloseable {
    int machineCount();

    /** The home machine of {@code key} now (a shard move changes it). */
    int home(long key);

    /** A path for one client thread; closed by it. */
    QueryPath openPath();

    /**
     * A path for one client thread that tells {@code recorder} the values its GETs of the keys the recorder observes
     * read and its inserts into them; null records nothing. Only a cluster whose traversals run on the client's
     * thread (in this JVM) can see what they read: the others refuse a recorder.
     */
    default QueryPath openPath(PathRecorder recorder) {
        if (recorder != null) {
            throw new UnsupportedOperationException(describe() + ": its traversals run in the server processes, where"
                + " a client cannot see the values they read, so no history is recorded");
        }
        return openPath();
    }

    /** Local and remote operations of every machine so far, summed. */
    FabricStats.Snapshot stats();

    /** Updates homes forwarded to a migrated value's host, summed over the machines. */
    long forwardedUpdates();

    /** A new control of split migration, following the spec's policy. */
    SplitMigration splitMigration();

    /** The shard baseline's tracking and moves; only on a cluster built with shard placement. */
    ShardMigration shardMigration();

    /** One line for the progress log: what runs where. */
    String describe();

    @Override
    void close();
}
