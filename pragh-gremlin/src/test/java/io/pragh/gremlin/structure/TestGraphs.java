package io.pragh.gremlin.structure;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyRegion;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;

/**
 * Small embedded clusters for tests: 4 machines as by default, but regions sized for test graphs, and no emulated
 * remote latency.
 */
public final class TestGraphs {
    private TestGraphs() {
    }

    public static Configuration configuration() {
        final Configuration conf = new BaseConfiguration();
        conf.setProperty("gremlin.graph", PraghGraph.class.getName());
        conf.setProperty(PraghGraph.MACHINES, 4);
        conf.setProperty(EmbeddedGraphStore.WORKERS, 1);
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, 4L << 20);
        conf.setProperty(EmbeddedGraphStore.KEYS, 16_384L);
        conf.setProperty(EmbeddedGraphStore.CACHE_BYTES, 256L << 10);
        conf.setProperty(EmbeddedGraphStore.RECLAIM_RING_SLOTS, 1024);
        conf.setProperty(EmbeddedGraphStore.REMOTE_LATENCY_NS, 0L);
        return conf;
    }

    public static PraghGraph open() {
        return PraghGraph.open(configuration());
    }

    /** Whether the value of {@code key} lives away from the key's home (migrated), as its home's address word says. */
    public static boolean migrated(final EmbeddedCluster cluster, final long key) {
        final KeyRegion keys = cluster.homeOf(key).store().keys();
        final long slot = keys.find(key);
        if (slot < 0) {
            throw new AssertionError("key " + key + " has no slot at its home");
        }
        return Address.isMigrated(keys.address(slot));
    }
}
