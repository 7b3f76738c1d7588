package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.process.traversal.TraversalSource;
import org.apache.tinkerpop.gremlin.server.GraphManager;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.util.GraphFactory;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;

import javax.script.Bindings;
import javax.script.SimpleBindings;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Gremlin Server's graphs and traversal sources, bound without an init script (so without Groovy): each configured
 * graph is opened, or taken from {@link #handOver} when its setting reads {@code handed-over:NAME}, and the first
 * graph's traversal is bound as {@code g}. Pragh is not transactional, so commit and rollback have nothing to do; the
 * query hooks time each request for the {@link GremlinRequests} attached to the first graph.
 *
 * <p>Example: {@code PraghGraphManager.handOver("graph", graph); settings.graphs = Map.of("graph", "handed-over:graph");}
 */
public final class PraghGraphManager implements GraphManager {
    static final String HANDED_OVER = "handed-over:";
    private static final Map<String, Graph> HANDOVERS = new ConcurrentHashMap<>();

    private final Map<String, Graph> graphs = new ConcurrentHashMap<>();
    private final Map<String, TraversalSource> sources = new ConcurrentHashMap<>();
    /** The first graph's request meters ({@link GremlinRequests#attach}), or null. */
    private GremlinRequests requests;

    /** Called by Gremlin Server with its settings. */
    public PraghGraphManager(final Settings settings) {
        for (final Map.Entry<String, String> e : settings.graphs.entrySet()) {
            final Graph graph = e.getValue().startsWith(HANDED_OVER)
                ? HANDOVERS.remove(e.getValue().substring(HANDED_OVER.length()))
                : GraphFactory.open(e.getValue());
            if (graph == null) {
                throw new IllegalStateException("graph '" + e.getKey() + "' was to be handed over as " + e.getValue() + " but was not");
            }
            graphs.put(e.getKey(), graph);
            if (requests == null) {
                requests = GremlinRequests.of(graph);
            }
            if (sources.isEmpty()) {
                sources.put("g", graph.traversal());
            }
        }
    }

    /** Makes an already open graph available to the next manager that names it {@code handed-over:name}. */
    public static void handOver(final String name, final Graph graph) {
        HANDOVERS.put(name, graph);
    }

    @Override
    public Set<String> getGraphNames() {
        return graphs.keySet();
    }

    @Override
    public Graph getGraph(final String name) {
        return graphs.get(name);
    }

    @Override
    public void putGraph(final String name, final Graph graph) {
        graphs.put(name, graph);
    }

    @Override
    public Set<String> getTraversalSourceNames() {
        return sources.keySet();
    }

    @Override
    public TraversalSource getTraversalSource(final String name) {
        return sources.get(name);
    }

    @Override
    public void putTraversalSource(final String name, final TraversalSource source) {
        sources.put(name, source);
    }

    @Override
    public TraversalSource removeTraversalSource(final String name) {
        return sources.remove(name);
    }

    @Override
    public Bindings getAsBindings() {
        final Bindings bindings = new SimpleBindings();
        bindings.putAll(graphs);
        bindings.putAll(sources);
        return bindings;
    }

    @Override
    public void beforeQueryStart(final RequestMessage msg) {
        if (requests != null) {
            requests.started(msg);
        }
    }

    @Override
    public void onQueryError(final RequestMessage msg, final Throwable error) {
        if (requests != null) {
            requests.failed(msg, error);
        }
    }

    @Override
    public void onQuerySuccess(final RequestMessage msg) {
        if (requests != null) {
            requests.succeeded(msg);
        }
    }

    @Override
    public void rollbackAll() {
    }

    @Override
    public void rollback(final Set<String> graphSourceNamesToCloseTxOn) {
    }

    @Override
    public void commitAll() {
    }

    @Override
    public void commit(final Set<String> graphSourceNamesToCloseTxOn) {
    }

    @Override
    public Graph openGraph(final String name, final Function<String, Graph> supplier) {
        return graphs.computeIfAbsent(name, supplier);
    }

    @Override
    public Graph removeGraph(final String name) throws Exception {
        final Graph graph = graphs.remove(name);
        if (graph != null) {
            graph.close();
        }
        return graph;
    }
}
