package io.pragh.gremlin.distributed;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.PraghGraphProvider;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * As {@link PraghGraphProvider}, but every test graph is a PraghGraph over a {@link ClusterGraphStore} on
 * {@value InJvmClusterPool#MACHINES} server machines in this JVM on the TCP fabric ({@link InJvmClusterPool}), as a
 * server machine's Gremlin front end builds it: the suites then check the store that reaches other machines through
 * the fabric and their client ports.
 */
public class PraghTcpGraphProvider extends PraghGraphProvider {
    @Override
    public Graph openTestGraph(final Configuration config) {
        return InJvmClusterPool.open(config);
    }
}
