package io.pragh.gremlin.distributed;

import io.pragh.gremlin.structure.ForwardingGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * PraghGraphs over {@value #MACHINES} server machines in this JVM on the TCP fabric, for the TinkerPop suites: each
 * open graph has an {@link InJvmCluster} of its own (a test that opens two graphs at once gets two, as on embedded
 * clusters), taken from a pool, so a suite starts a few clusters rather than one per test. Closing the graph clears
 * its cluster of every key and returns it; the pool's clusters stop when the JVM exits.
 *
 * <p>Example: {@code PraghGraph g = InJvmClusterPool.open(conf); ... g.close(); // its cluster is empty and free again}
 */
public final class InJvmClusterPool {
    public static final int MACHINES = 3;
    private static final Deque<InJvmCluster> FREE = new ArrayDeque<>();
    private static final List<InJvmCluster> ALL = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(InJvmClusterPool::closeAll, "in-jvm-cluster-pool-close"));
    }

    private InJvmClusterPool() {
    }

    /**
     * A graph over machine 0 of a free cluster, with {@code settings} (the machine count set to the cluster's, as a
     * server's Gremlin front end sets it).
     */
    public static PraghGraph open(final Configuration settings) {
        final Configuration conf = new BaseConfiguration();
        for (final Iterator<String> keys = settings.getKeys(); keys.hasNext(); ) {
            final String key = keys.next();
            conf.setProperty(key, settings.getProperty(key));
        }
        conf.setProperty(PraghGraph.MACHINES, MACHINES);
        final InJvmCluster cluster = take();
        return PraghGraph.open(conf, new Returned(cluster, cluster.store(0)));
    }

    private static synchronized InJvmCluster take() {
        final InJvmCluster free = FREE.poll();
        if (free != null) {
            return free;
        }
        final InJvmCluster started = InJvmCluster.start(MACHINES);
        ALL.add(started);
        return started;
    }

    /** Clears {@code cluster} and makes it free; one that cannot be cleared is stopped, never handed out again. */
    private static void giveBack(final InJvmCluster cluster) {
        try {
            cluster.clear();
        } catch (RuntimeException e) {
            synchronized (InJvmClusterPool.class) {
                ALL.remove(cluster);
            }
            cluster.close();
            throw e;
        }
        synchronized (InJvmClusterPool.class) {
            FREE.push(cluster);
        }
    }

    private static synchronized void closeAll() {
        for (final InJvmCluster c : ALL) {
            c.close();
        }
        ALL.clear();
        FREE.clear();
    }

    /** A cluster's store that gives the cluster back when closed; every other call goes to the store as it is. */
    private static final class Returned extends ForwardingGraphStore {
        private final InJvmCluster cluster;

        Returned(final InJvmCluster cluster, final ClusterGraphStore store) {
            super(store);
            this.cluster = cluster;
        }

        @Override
        public void close() {
            store.close();
            giveBack(cluster);
        }
    }
}
