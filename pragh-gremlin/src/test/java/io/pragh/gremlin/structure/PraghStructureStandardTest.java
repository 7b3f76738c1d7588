package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.GraphProviderClass;
import org.apache.tinkerpop.gremlin.structure.StructureStandardSuite;
import org.junit.runner.RunWith;

/** TinkerPop's structure conformance suite against PraghGraph; opt-outs are on PraghGraph with their reasons. */
@RunWith(StructureStandardSuite.class)
@GraphProviderClass(provider = PraghGraphProvider.class, graph = PraghGraph.class)
public class PraghStructureStandardTest {
}
