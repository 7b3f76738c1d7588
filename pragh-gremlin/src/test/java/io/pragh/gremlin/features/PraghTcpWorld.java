package io.pragh.gremlin.features;

import io.pragh.gremlin.distributed.InJvmClusterPool;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.LoadGraphWith;

import java.util.EnumMap;
import java.util.Map;

/**
 * {@link PraghWorld} with every graph over 3 server machines in this JVM on the TCP fabric ({@link InJvmClusterPool}):
 * one cluster per loaded test graph, kept for the run, and one for the empty graphs, cleared after each scenario.
 */
public final class PraghTcpWorld extends PraghWorld {
    private static final Map<LoadGraphWith.GraphData, PraghGraph> LOADED = new EnumMap<>(LoadGraphWith.GraphData.class);

    public PraghTcpWorld() {
        super(() -> InJvmClusterPool.open(new BaseConfiguration()), LOADED);
    }
}
