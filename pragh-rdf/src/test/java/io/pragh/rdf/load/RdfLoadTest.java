package io.pragh.rdf.load;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfStore;
import org.apache.jena.graph.Graph;
import org.apache.jena.graph.Triple;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.riot.out.NodeFmtLib;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A file's triple set comes back whole from the store, on both write paths; bad input names its line. */
class RdfLoadTest {
    private static final String TURTLE = String.join("\n",
        "@prefix ex: <http://example.org/> .",
        "ex:alice ex:knows ex:bob , ex:carol ;",
        "         ex:name \"Alice\" , \"Alicia\"@es ;",
        "         ex:age 42 .",
        "ex:bob ex:knows ex:alice ; ex:name \"Bob\" .",
        "ex:bob ex:knows ex:alice .",
        "ex:carol a ex:Person ; ex:score 1.5 .",
        "");

    @Test
    void turtleTripleSetRoundTripsThroughTheEmbeddedBulkPath(@TempDir final Path dir) throws IOException {
        try (GraphStore store = TestStores.embedded(3)) {
            roundTrip(store, dir);
        }
    }

    @Test
    void turtleTripleSetRoundTripsThroughBatchedAppends(@TempDir final Path dir) throws IOException {
        try (GraphStore store = TestStores.notEmbedded(TestStores.embedded(2))) {
            roundTrip(store, dir);
        }
    }

    private static void roundTrip(final GraphStore store, final Path dir) throws IOException {
        final Path file = dir.resolve("people.ttl");
        Files.writeString(file, TURTLE);
        final RdfStore rdf = new RdfStore(store);
        final RdfLoad.Result r = RdfLoad.into(rdf).load(file);
        final Graph expected = RDFDataMgr.loadGraph(file.toString());
        assertEquals(expected.size(), r.triples(), "duplicates are stored once");
        final Set<String> predicates = new HashSet<>();
        final Set<String> want = new HashSet<>();
        expected.find().forEachRemaining(t -> {
            predicates.add(NodeFmtLib.strNT(t.getPredicate()));
            want.add(nt(t));
        });
        final Set<String> got = new HashSet<>();
        final SparqlEngine engine = new SparqlEngine(rdf);
        for (final String p : predicates) {
            final List<Map<String, String>> rows = engine.query("SELECT ?s ?o WHERE { ?s " + p + " ?o }")
                .rowsAsStrings();
            for (final Map<String, String> row : rows) {
                assertTrue(got.add(row.get("s") + " " + p + " " + row.get("o")), "each triple once");
            }
            final List<Map<String, String>> objects = engine.query("SELECT DISTINCT ?o WHERE { ?s " + p + " ?o }")
                .rowsAsStrings();
            assertEquals(rows.stream().map(m -> m.get("o")).distinct().count(), objects.size());
        }
        assertEquals(want, got);
        for (final String p : predicates) {
            final int label = rdf.predicate(p);
            assertTrue(label > 0, p);
            for (final int edgeLabel : store.names().edgeLabels()) {
                assertTrue(edgeLabel != label, p + " is no edge label: Gremlin over the store must not read its lists");
            }
        }
    }

    private static String nt(final Triple t) {
        return NodeFmtLib.strNT(t.getSubject()) + " " + NodeFmtLib.strNT(t.getPredicate()) + " "
            + NodeFmtLib.strNT(t.getObject());
    }

    @Test
    void badInputNamesItsLineAndWritesNothing(@TempDir final Path dir) throws IOException {
        final Path file = dir.resolve("bad.nt");
        Files.writeString(file, "<http://a> <http://p> <http://b> .\n<http://a> <http://p> <http://c> .\n"
            + "<http://a> <http://p> .\n<http://a> <http://p> <http://d> .\n");
        try (GraphStore store = TestStores.embedded(2)) {
            final RdfStore rdf = new RdfStore(store);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RdfLoad.into(rdf).load(file));
            assertTrue(e.getMessage().contains("bad.nt line 3"), e.getMessage());
            assertEquals(-1, rdf.terms().id("<http://a>"), "nothing was written");
        }
    }

    @Test
    void aFileOfAnotherLanguageIsRefusedByName(@TempDir final Path dir) throws IOException {
        final Path file = dir.resolve("data.rdf");
        Files.writeString(file, "<rdf:RDF/>");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RdfLoad.languageOf(file));
        assertTrue(e.getMessage().contains("not an N-Triples (.nt) or Turtle (.ttl) file"), e.getMessage());
    }
}
