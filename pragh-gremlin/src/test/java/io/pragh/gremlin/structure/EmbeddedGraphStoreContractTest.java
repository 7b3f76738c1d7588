package io.pragh.gremlin.structure;

import org.apache.commons.configuration2.Configuration;

/** The {@link GraphStore} contract on an embedded cluster: a new one of {@value #MACHINES} machines per test. */
class EmbeddedGraphStoreContractTest extends GraphStoreContract {
    @Override
    protected GraphStore open() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(PraghGraph.MACHINES, MACHINES);
        return EmbeddedGraphStore.open(conf);
    }

    @Override
    protected int homeOf(final long key) {
        return ((EmbeddedGraphStore) store).cluster().home(key);
    }
}
