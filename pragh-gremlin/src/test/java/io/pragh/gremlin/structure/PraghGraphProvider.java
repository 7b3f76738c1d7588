package io.pragh.gremlin.structure;

import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.AbstractGraphProvider;
import org.apache.tinkerpop.gremlin.LoadGraphWith;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.util.detached.DetachedGraphTest;
import org.apache.tinkerpop.gremlin.structure.util.star.StarGraphTest;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** How TinkerPop's structure suite opens, clears and recognises PraghGraphs: small embedded clusters, long ids. */
public class PraghGraphProvider extends AbstractGraphProvider {
    private static final Set<Class> IMPLEMENTATION = Set.of(PraghGraph.class, PraghVertex.class, PraghEdge.class,
        PraghElement.class, PraghVertexProperty.class, PraghProperty.class);

    @Override
    public Map<String, Object> getBaseConfiguration(final String graphName, final Class<?> test, final String testMethodName,
                                                    final LoadGraphWith.GraphData loadGraphWith) {
        final Map<String, Object> conf = new HashMap<>();
        final Configuration base = TestGraphs.configuration();
        for (final Iterator<String> keys = base.getKeys(); keys.hasNext(); ) {
            final String key = keys.next();
            conf.put(key, base.getProperty(key));
        }
        // as TinkerGraph's provider: the crew's multi-properties and the attach tests need list by default
        if (loadGraphWith == LoadGraphWith.GraphData.CREW
            || (test == StarGraphTest.class && testMethodName.equals("shouldAttachWithCreateMethod"))
            || (test == DetachedGraphTest.class && testMethodName.equals("testAttachableCreateMethod"))) {
            conf.put(PraghGraph.DEFAULT_CARDINALITY, "list");
        }
        return conf;
    }

    @Override
    public void clear(final Graph graph, final Configuration configuration) throws Exception {
        if (graph != null) {
            graph.close();
        }
    }

    @Override
    public Set<Class> getImplementations() {
        return IMPLEMENTATION;
    }

    @Override
    public Object convertId(final Object id, final Class<? extends org.apache.tinkerpop.gremlin.structure.Element> c) {
        return id instanceof Number ? ((Number) id).longValue() : Long.parseLong(id.toString());
    }
}
