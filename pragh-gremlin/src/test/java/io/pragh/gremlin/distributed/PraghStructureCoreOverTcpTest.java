package io.pragh.gremlin.distributed;

import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.junit.runner.RunWith;

/**
 * The store-facing part of TinkerPop's structure suite over 3 server machines in this JVM on the TCP fabric, run in
 * every test run: the graph, vertex, edge, property and vertex property tests (ids, adding and removing elements,
 * adjacency, every property path) and the edge and property IO round trips. The rest of the suite (random graph
 * generators, detached, reference and star graphs, serialization, features) reads the store through these same
 * paths and runs over TCP in {@link PraghStructureOverTcpSuite} ({@code ./pragh test-tcp-suites}).
 */
@RunWith(StoreFacingStructureSuite.class)
@GraphProviderClass(provider = PraghTcpGraphProvider.class, graph = PraghGraph.class)
public class PraghStructureCoreOverTcpTest {
}
