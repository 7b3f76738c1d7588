package io.pragh.rdf.sparql;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.store.RdfStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A query whose thread is interrupted (the SPARQL endpoint's timeout gave up on it) stops at its next step, saying
 * so, instead of running on for nobody; the same query on a thread left alone answers. The exploration runs on the
 * calling thread, as on a cluster machine: handed to an embedded machine's worker instead, a query could finish before
 * the wait for it looked at the interrupt, and the test would depend on the machine's speed.
 */
class InterruptedQueryTest {
    private static final String QUERY = "SELECT ?x ?y WHERE { ?x <http://p> ?y . ?y <http://p> ?z }";

    @Test
    void interruptedQueryStopsBetweenSteps(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("t.nt");
        Files.writeString(file, "<http://a> <http://p> <http://b> .\n<http://b> <http://p> <http://c> .\n");
        try (GraphStore store = TestStores.notEmbedded(TestStores.embedded(1), true)) {
            final RdfStore rdf = new RdfStore(store);
            RdfLoad.into(rdf).load(file);
            final SparqlEngine engine = new SparqlEngine(rdf);
            assertEquals(1, engine.query(QUERY).rows().size());
            Thread.currentThread().interrupt();
            try {
                // The exploration notices it between steps and says so.
                final RuntimeException e = assertThrows(RuntimeException.class, () -> engine.query(QUERY));
                assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
            } finally {
                Thread.interrupted();
            }
        }
    }
}
