package io.pragh.gremlin.distributed;

import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.structure.StructureStandardSuite;
import org.junit.runner.RunWith;

/**
 * TinkerPop's whole structure conformance suite against PraghGraphs over 3 server machines in this JVM on the TCP
 * fabric ({@link PraghTcpGraphProvider}); opt-outs are on PraghGraph with their reasons, as for the embedded run.
 * Too long for {@code ./pragh test} (its name is no surefire default, so that skips it; the random graph generators
 * alone take minutes over TCP): run with {@code ./pragh test-tcp-suites}. {@link PraghStructureCoreOverTcpTest} runs
 * its store-facing part in every test run.
 */
@RunWith(StructureStandardSuite.class)
@GraphProviderClass(provider = PraghTcpGraphProvider.class, graph = PraghGraph.class)
public class PraghStructureOverTcpSuite {
}
