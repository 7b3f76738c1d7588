package io.pragh.rdf.load;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.JenaRows;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.store.RdfStore;
import org.apache.jena.query.Dataset;
import org.apache.jena.riot.RDFDataMgr;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A triple loaded twice is stored once: LUBM-1 loaded whole, then its middle half again through batched appends (as
 * into a running cluster), then whole again with segments of {@value #SEGMENT} ids, answers every LUBM query with
 * Jena's rows over the file (Jena's graph is a set of triples), and the repeated loads report no new triple.
 */
class RepeatedLoadTest {
    private static final int SEGMENT = 64;

    private static Path whole;
    private static GraphStore store;
    private static RdfStore rdf;
    private static Dataset jena;
    private static long first;
    private static long again;
    private static long third;

    @BeforeAll
    static void loadTheSameTriplesThreeTimes() throws IOException {
        final StringWriter lubm = new StringWriter();
        new LubmGenerator(1, 0).write(lubm);
        final List<String> lines = lubm.toString().lines().toList();
        whole = Files.createTempFile("lubm-1-", ".nt");
        final Path middle = Files.createTempFile("lubm-1-middle-", ".nt");
        Files.write(whole, lines);
        Files.write(middle, lines.subList(lines.size() / 4, 3 * lines.size() / 4));
        store = TestStores.embedded(3);
        rdf = new RdfStore(store);
        first = RdfLoad.into(rdf).segmentEntries(SEGMENT).load(whole).triples();
        again = RdfLoad.into(new RdfStore(TestStores.notEmbedded(store), rdf.terms())).segmentEntries(SEGMENT)
            .load(middle).triples();
        third = RdfLoad.into(rdf).segmentEntries(SEGMENT).load(whole).triples();
        Files.delete(middle);
        jena = RDFDataMgr.loadDataset(whole.toString());
    }

    @AfterAll
    static void close() throws IOException {
        store.close();
        Files.deleteIfExists(whole);
    }

    @Test
    void repeatedLoadsAddNoTriple() {
        assertEquals(jena.getDefaultModel().size(), first);
        assertEquals(0, again);
        assertEquals(0, third);
    }

    @ParameterizedTest
    @ValueSource(strings = {"L1", "L2", "L3", "L4", "L5", "L6", "L7"})
    void lubmQueryAfterRepeatedLoadsGivesJenasRows(final String name) throws IOException {
        JenaRows.assertSameAsJena(JenaRows.lubm(name), rdf, jena);
    }

    @Test
    void everyTripleOfAPredicateAnswersOnce() {
        final var courses = JenaRows.assertSameAsJena("SELECT ?s ?o WHERE { ?s"
            + " <http://swat.cse.lehigh.edu/onto/univ-bench.owl#takesCourse> ?o }", rdf, jena);
        assertTrue(courses.values().stream().allMatch(n -> n == 1), "a row answered more than once");
        JenaRows.assertSameAsJena("SELECT ?s ?t WHERE { ?s a ?t }", rdf, jena);
    }
}
