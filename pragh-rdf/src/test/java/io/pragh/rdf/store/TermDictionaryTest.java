package io.pragh.rdf.store;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.sparql.SparqlEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Terms find their ids through hash buckets whatever collides, and ids their terms. */
class TermDictionaryTest {
    private static final String[] TERMS = {"<http://a>", "<http://b>", "\"b\"", "\"b\"@en",
        "\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>", "<http://p>", "\"x y \\\"quoted\\\"\""};

    @Test
    void everyTermKeepsItsOwnIdWhenAllHashesCollide(@TempDir final Path dir) throws IOException {
        final Path file = dir.resolve("t.nt");
        Files.writeString(file, "<http://a> <http://p> <http://b> .\n<http://a> <http://p> \"b\" .\n"
            + "<http://b> <http://p> \"b\"@en .\n<http://b> <http://p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
            + "<http://a> <http://p> \"x y \\\"quoted\\\"\" .\n<http://a> <http://q> <http://p> .\n");
        try (GraphStore store = TestStores.embedded(2)) {
            final TermDictionary colliding = new TermDictionary(store, utf8 -> 7); // one bucket for every term
            final RdfStore rdf = new RdfStore(store, colliding);
            RdfLoad.into(rdf).load(file);
            final long[] ids = colliding.ids(TERMS, TERMS.length);
            final Set<Long> distinct = new HashSet<>();
            for (final long id : ids) {
                assertTrue(id > 0, "every term was loaded");
                distinct.add(id);
            }
            assertEquals(TERMS.length, distinct.size(), "no two terms share an id");
            assertArrayEquals(TERMS, colliding.forms(ids, ids.length));
            assertEquals(-1, colliding.id("<http://never>"));
            assertEquals(3, new SparqlEngine(rdf).query("SELECT ?o WHERE { <http://a> <http://p> ?o }").rows().size());
        }
    }

    @Test
    void aSecondLoadReusesTheIdsOfKnownTerms(@TempDir final Path dir) throws IOException {
        final Path first = dir.resolve("1.nt");
        final Path second = dir.resolve("2.nt");
        Files.writeString(first, "<http://a> <http://p> <http://b> .\n");
        Files.writeString(second, "<http://b> <http://p> <http://c> .\n<http://a> <http://p> <http://c> .\n");
        try (GraphStore store = TestStores.embedded(2)) {
            final RdfStore rdf = new RdfStore(store);
            assertEquals(2, RdfLoad.into(rdf).load(first).newTerms());
            final long a = rdf.terms().id("<http://a>");
            assertEquals(1, RdfLoad.into(rdf).load(second).newTerms(), "only <http://c> is new");
            assertEquals(a, rdf.terms().id("<http://a>"));
            assertEquals(2, new SparqlEngine(rdf).query("SELECT ?o WHERE { <http://a> <http://p> ?o }").rows().size());
            assertEquals(2, new SparqlEngine(rdf).query("SELECT ?s WHERE { ?s <http://p> <http://c> }").rows().size());
        }
    }
}
