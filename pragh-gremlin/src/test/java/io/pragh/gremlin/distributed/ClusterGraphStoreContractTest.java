package io.pragh.gremlin.distributed;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.GraphStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * The {@link GraphStore} contract on a {@link ClusterGraphStore} over machine 1 of {@value #MACHINES} server machines
 * in this JVM on the TCP fabric ({@link InJvmCluster}): started once, cleared of every key before each test.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterGraphStoreContractTest extends GraphStoreContract {
    private static InJvmCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = InJvmCluster.start(MACHINES);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected GraphStore open() {
        cluster.clear();
        return cluster.store(1);
    }

    @Override
    protected int homeOf(final long key) {
        return cluster.node(0).machine().store().placement().home(key);
    }
}
