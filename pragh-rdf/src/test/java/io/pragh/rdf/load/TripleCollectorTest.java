package io.pragh.rdf.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFParser;
import org.junit.jupiter.api.Test;

class TripleCollectorTest {
    private static TripleCollector parse(final String nt) {
        final TripleCollector c = new TripleCollector();
        RDFParser.fromString(nt, Lang.NTRIPLES).parse(c);
        c.finish();
        return c;
    }

    @Test
    void storeKeysCountsEachListOnceNotEachTriple() {
        final TripleCollector c = parse("""
            <http://x/a> <http://x/p> <http://x/b> .
            <http://x/a> <http://x/p> <http://x/c> .
            <http://x/b> <http://x/q> <http://x/c> .
            """);
        // Lists (a,p,OUT) (b,p,IN) (c,p,IN) (b,q,OUT) (c,q,IN); 3 terms x 2; 2 predicates x 2 index lists.
        assertEquals(5 + 6 + 4, c.storeKeys());
        assertEquals(3, c.size());
    }

    @Test
    void aFinishedParseRefusesMoreTriplesAndKeepsWhatItHad() {
        final TripleCollector c = parse("<http://x/a> <http://x/p> <http://x/b> .\n");
        assertThrows(IllegalStateException.class,
            () -> RDFParser.fromString("<http://x/c> <http://x/p> <http://x/d> .\n", Lang.NTRIPLES).parse(c));
        assertEquals(1, c.size());
        assertEquals(2, c.termCount());
    }
}
