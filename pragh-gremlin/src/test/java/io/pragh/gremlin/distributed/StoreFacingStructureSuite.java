package io.pragh.gremlin.distributed;

import org.apache.tinkerpop.gremlin.AbstractGremlinSuite;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalEngine;
import org.apache.tinkerpop.gremlin.structure.EdgeTest;
import org.apache.tinkerpop.gremlin.structure.GraphConstructionTest;
import org.apache.tinkerpop.gremlin.structure.GraphTest;
import org.apache.tinkerpop.gremlin.structure.PropertyTest;
import org.apache.tinkerpop.gremlin.structure.VertexPropertyTest;
import org.apache.tinkerpop.gremlin.structure.VertexTest;
import org.apache.tinkerpop.gremlin.structure.io.IoEdgeTest;
import org.apache.tinkerpop.gremlin.structure.io.IoPropertyTest;
import org.junit.runners.model.InitializationError;
import org.junit.runners.model.RunnerBuilder;

/**
 * The store-facing tests of TinkerPop's structure suite, run as that suite runs them: graph, vertex, edge, property
 * and vertex property tests (ids, adding and removing elements, adjacency, every property path) and the edge and
 * property IO round trips. PraghGraph opts in to it by this class's name.
 */
public final class StoreFacingStructureSuite extends AbstractGremlinSuite {
    private static final Class<?>[] TESTS = {GraphTest.class, GraphConstructionTest.class, VertexTest.class,
        EdgeTest.class, PropertyTest.class, VertexPropertyTest.class, IoEdgeTest.class, IoPropertyTest.class};

    public StoreFacingStructureSuite(final Class<?> klass, final RunnerBuilder builder) throws InitializationError {
        super(klass, builder, TESTS, TESTS, false, TraversalEngine.Type.STANDARD);
    }
}
