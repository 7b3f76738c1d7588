package io.pragh.rdf.sparql;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Queries outside the supported subset are refused with the construct named; those inside keep their modifiers. */
class QueryCompilerTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT ?x WHERE { ?x <http://p> ?y OPTIONAL { ?y <http://q> ?z } }|OPTIONAL",
        "SELECT ?x WHERE { { ?x <http://p> ?y } UNION { ?x <http://q> ?y } }|UNION",
        "SELECT ?x WHERE { ?x <http://p>/<http://q> ?y }|property paths",
        "SELECT ?x WHERE { ?x <http://p>* ?y }|property paths",
        "SELECT ?x WHERE { ?x <http://p> ?y } ORDER BY ?y|ORDER BY",
        "SELECT ?x WHERE { ?x ?p ?y }|a variable predicate",
        "SELECT ?x WHERE { ?x <http://p> ?y FILTER(regex(?y, 'a')) }|FILTER (regex(",
        "SELECT ?x WHERE { ?x <http://p> ?y FILTER(?y > 3) }|?y > 3",
        "SELECT ?x WHERE { ?x <http://p> ?y FILTER(?y = 3) }|typed literal",
        "SELECT ?y (COUNT(?x) AS ?n) WHERE { ?x <http://p> ?y } GROUP BY ?y|GROUP BY",
        "SELECT (SUM(?y) AS ?n) WHERE { ?x <http://p> ?y }|the aggregate sum",
        "SELECT ?x WHERE { ?x <http://p> ?y MINUS { ?x <http://q> ?y } }|MINUS",
        "SELECT ?x WHERE { ?x <http://p> ?y BIND(1 AS ?z) }|BIND",
        "SELECT ?x WHERE { VALUES ?x { <http://a> } ?x <http://p> ?y }|a join of group patterns",
        "ASK { ?x <http://p> ?y }|ASK queries",
        "SELECT ?x WHERE { GRAPH ?g { ?x <http://p> ?y } }|GRAPH"})
    void unsupportedConstructIsRefusedByName(final String query, final String construct) {
        final UnsupportedQueryException e = assertThrows(UnsupportedQueryException.class,
            () -> QueryCompiler.compile(query));
        assertTrue(e.getMessage().toLowerCase().contains(construct.toLowerCase()), e.getMessage());
    }

    @Test
    void syntaxErrorIsReportedAsSuch() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> QueryCompiler.compile("SELECT ?x WHERE { ?x <http://p> }"));
        assertTrue(e.getMessage().startsWith("SPARQL syntax error"), e.getMessage());
    }

    @Test
    void supportedModifiersAreKept() {
        final QueryShape q = QueryCompiler.compile("SELECT DISTINCT ?x WHERE { ?x <http://p> ?y ."
            + " FILTER(?y != <http://a> && sameTerm(?x, <http://b>)) } OFFSET 2 LIMIT 3");
        assertEquals(1, q.patterns().size());
        assertEquals(2, q.filters().size());
        assertTrue(q.distinct());
        assertEquals(2, q.offset());
        assertEquals(3, q.limit());
        final QueryShape c = QueryCompiler.compile("SELECT (COUNT(DISTINCT ?y) AS ?n) WHERE { ?x <http://p> ?y }");
        assertEquals("y", c.count().of().getVarName());
        assertTrue(c.count().distinct());
    }
}
