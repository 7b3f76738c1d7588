package io.pragh.rdf.load;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.JenaRows;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.store.RdfKeys;
import io.pragh.rdf.store.RdfStore;
import io.pragh.rdf.store.TermList;
import io.pragh.rdf.store.TermLists;
import io.pragh.rdf.store.TermSegments;
import io.pragh.store.ValueView;
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
 * Supernodes of an RDF store: with segments of {@value #SEGMENT} ids, LUBM-1 loaded in two halves (the first through
 * the embedded bulk path, the second appended through batched appends, as into a running cluster) leaves the index
 * vertex's lists and the big classes' instance lists segmented, no list's tail longer than a segment, and every LUBM
 * query answering as Jena does over the whole file.
 */
class SegmentedIndexTest {
    private static final int SEGMENT = 64;
    private static final String TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";

    private static Path whole;
    private static GraphStore store;
    private static RdfStore rdf;
    private static Dataset jena;

    @BeforeAll
    static void loadInTwoHalves() throws IOException {
        final StringWriter lubm = new StringWriter();
        new LubmGenerator(1, 0).write(lubm);
        final List<String> lines = lubm.toString().lines().toList();
        whole = Files.createTempFile("lubm-1-", ".nt");
        final Path first = Files.createTempFile("lubm-1-a-", ".nt");
        final Path second = Files.createTempFile("lubm-1-b-", ".nt");
        Files.write(whole, lines);
        Files.write(first, lines.subList(0, lines.size() / 2));
        Files.write(second, lines.subList(lines.size() / 2, lines.size()));
        store = TestStores.embedded(3);
        rdf = new RdfStore(store);
        RdfLoad.into(rdf).segmentEntries(SEGMENT).load(first);
        RdfLoad.into(new RdfStore(TestStores.notEmbedded(store), rdf.terms())).segmentEntries(SEGMENT).load(second);
        Files.delete(first);
        Files.delete(second);
        jena = RDFDataMgr.loadDataset(whole.toString());
    }

    @AfterAll
    static void close() throws IOException {
        store.close();
        Files.deleteIfExists(whole);
    }

    @Test
    void indexVertexListAboveASegmentIsSegmentedAndReadsWhole() {
        final long key = RdfKeys.out(RdfKeys.INDEX, rdf.predicate(TYPE));
        final ValueView tail = new ValueView().over(store.get(key));
        assertTrue(TermSegments.heads(tail) > 1, "the typed subjects' index list has sealed segments");
        assertTrue(TermList.count(tail) <= SEGMENT, "its tail holds at most a segment: " + TermList.count(tail));
        final long[] all = TermLists.readAll(store, new long[] {key}, 1)[0];
        assertEquals(TermSegments.total(tail), all.length, "the heads count what the segments hold");
        final long typed = JenaRows.of("SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ?t }", jena).keySet()
            .iterator().next().values().stream().mapToLong(SegmentedIndexTest::integer).sum();
        assertEquals(typed, java.util.Arrays.stream(all).distinct().count(), "every typed subject, once or more");
    }

    @Test
    void noListTailOutgrowsASegment() {
        for (final int kind : new int[] {RdfKeys.OUT, RdfKeys.IN}) {
            store.forEachKey(kind, key -> {
                final ValueView tail = new ValueView().over(store.get(key));
                assertTrue(TermList.count(tail) <= SEGMENT, "the list under key " + key + " has a tail of "
                    + TermList.count(tail) + " ids");
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"L1", "L2", "L3", "L4", "L5", "L6", "L7"})
    void lubmQueryOverSegmentedListsGivesJenasRows(final String name) throws IOException {
        JenaRows.assertSameAsJena(JenaRows.lubm(name), rdf, jena);
    }

    @Test
    void patternWithOnlyVariablesStartsAtTheSegmentedIndex() {
        final String query = "SELECT ?s ?o WHERE { ?s <http://swat.cse.lehigh.edu/onto/univ-bench.owl#takesCourse> ?o }";
        final var ours = JenaRows.assertSameAsJena(query, rdf, jena);
        assertTrue(ours.size() > SEGMENT, "the predicate's index list is longer than a segment");
    }

    private static long integer(final String literal) {
        return Long.parseLong(literal.replaceAll("^\"([0-9]+)\".*$", "$1"));
    }
}
