package io.pragh.gremlin.features;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import io.cucumber.java.Scenario;
import org.junit.AssumptionViolatedException;
import org.apache.tinkerpop.gremlin.LoadGraphWith;
import org.apache.tinkerpop.gremlin.features.World;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerFactory;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Gherkin suite's view of Pragh: the five TinkerPop test graphs copied (ids included) into PraghGraphs once per
 * run, and a fresh empty PraghGraph for each scenario that mutates, closed after it. Graphs are opened on embedded
 * clusters here; a subclass opens them elsewhere (over server machines on the TCP fabric).
 */
public class PraghWorld implements World {
    private static final Map<LoadGraphWith.GraphData, PraghGraph> EMBEDDED = new EnumMap<>(LoadGraphWith.GraphData.class);
    private final Supplier<PraghGraph> graphs;
    /** The test graphs loaded so far, kept for the run: one map per kind of graph. */
    private final Map<LoadGraphWith.GraphData, PraghGraph> loaded;
    private PraghGraph empty;

    public PraghWorld() {
        this(TestGraphs::open, EMBEDDED);
    }

    protected PraghWorld(final Supplier<PraghGraph> graphs, final Map<LoadGraphWith.GraphData, PraghGraph> loaded) {
        this.graphs = graphs;
        this.loaded = loaded;
    }

    @Override
    public GraphTraversalSource getGraphTraversalSource(final LoadGraphWith.GraphData graphData) {
        if (graphData == null) {
            empty = graphs.get();
            return empty.traversal();
        }
        synchronized (loaded) {
            return loaded.computeIfAbsent(graphData, this::load).traversal();
        }
    }

    @Override
    public void beforeEachScenario(final Scenario scenario) {
        empty = null;
        if (scenario.getUri().toString().endsWith("/Call.feature")) {
            throw new AssumptionViolatedException("call() scenarios exercise TinkerGraph's own test services"
                + " (tinker.search, tinker.degree.centrality); PraghGraph registers no services");
        }
    }

    /**
     * The suite's data files (the modern graph as Gryo, GraphSON and GraphML) live in TinkerPop's source tree, not in
     * gremlin-test's jar: write them once from TinkerFactory's modern graph with TinkerPop's own writers.
     */
    @Override
    public String changePathToDataFile(final String pathToFileFromGremlin) {
        return DataFiles.path(pathToFileFromGremlin);
    }

    @Override
    public void afterEachScenario() {
        if (empty != null) {
            empty.close();
            empty = null;
        }
    }

    private PraghGraph load(final LoadGraphWith.GraphData data) {
        final Graph source;
        switch (data) {
            case MODERN: source = TinkerFactory.createModern(); break;
            case CLASSIC: source = TinkerFactory.createClassic(); break;
            case CREW: source = TinkerFactory.createTheCrew(); break;
            case SINK: source = TinkerFactory.createKitchenSink(); break;
            case GRATEFUL: source = TinkerFactory.createGratefulDead(); break;
            default: throw new UnsupportedOperationException("no test graph " + data);
        }
        final PraghGraph target = graphs.get();
        copy(source, target);
        return target;
    }

    /** Copies every vertex, vertex property (with meta-properties) and edge, keeping vertex and edge ids. */
    static void copy(final Graph source, final Graph target) {
        source.vertices().forEachRemaining(v -> {
            final Vertex copy = target.addVertex(T.id, v.id(), T.label, v.label());
            v.properties().forEachRemaining(p -> {
                final List<Object> metas = new ArrayList<>();
                p.properties().forEachRemaining(m -> {
                    metas.add(m.key());
                    metas.add(m.value());
                });
                copy.property(VertexProperty.Cardinality.list, p.key(), p.value(), metas.toArray());
            });
        });
        source.edges().forEachRemaining(e -> {
            final List<Object> keyValues = new ArrayList<>();
            keyValues.add(T.id);
            keyValues.add(e.id());
            e.properties().forEachRemaining(p -> {
                keyValues.add(p.key());
                keyValues.add(p.value());
            });
            final Vertex out = target.vertices(e.outVertex().id()).next();
            final Vertex in = target.vertices(e.inVertex().id()).next();
            final Edge copy = out.addEdge(e.label(), in, keyValues.toArray());
            assert copy.id().equals(((Number) e.id()).longValue());
        });
    }
}
