package io.pragh.rdf;

import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfStore;
import org.apache.jena.query.Dataset;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryExecutionFactory;
import org.apache.jena.query.QuerySolution;
import org.apache.jena.query.ResultSet;
import org.apache.jena.riot.ResultSetMgr;
import org.apache.jena.riot.out.NodeFmtLib;
import org.apache.jena.riot.resultset.ResultSetLang;
import org.junit.jupiter.api.Assertions;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Result sets as multisets of rows (variable to N-Triples form), to compare answers with Jena's: from Jena's own
 * engine over a dataset, or from a SPARQL JSON document an endpoint sent.
 *
 * <p>Example: {@code assertEquals(JenaRows.of(query, jena), JenaRows.ofJson(body));}
 */
public final class JenaRows {
    private JenaRows() {
    }

    /** Jena's answer to {@code query} over {@code data}. */
    public static Map<Map<String, String>, Integer> of(final String query, final Dataset data) {
        try (QueryExecution exec = QueryExecutionFactory.create(query, data)) {
            return rows(exec.execSelect());
        }
    }

    /** The rows of a SPARQL JSON results document. */
    public static Map<Map<String, String>, Integer> ofJson(final String json) {
        return rows(ResultSetMgr.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
            ResultSetLang.RS_JSON));
    }

    /** Rows as {@code SparqlResult.rowsAsStrings} gives them, as a multiset. */
    public static Map<Map<String, String>, Integer> of(final java.util.List<Map<String, String>> rows) {
        final Map<Map<String, String>, Integer> m = new HashMap<>();
        for (final Map<String, String> r : rows) {
            m.merge(r, 1, Integer::sum);
        }
        return m;
    }

    /** Asserts that our engine over {@code rdf} answers {@code query} with Jena's rows over {@code jena}; ours. */
    public static Map<Map<String, String>, Integer> assertSameAsJena(final String query, final RdfStore rdf,
                                                                     final Dataset jena) {
        final Map<Map<String, String>, Integer> ours = of(new SparqlEngine(rdf).query(query).rowsAsStrings());
        Assertions.assertEquals(of(query, jena), ours, query);
        return ours;
    }

    /** A LUBM query of the set ({@code L1} .. {@code L7}) from pragh-rdf's resources. */
    public static String lubm(final String name) throws IOException {
        try (InputStream in = JenaRows.class.getResourceAsStream("/io/pragh/rdf/lubm/" + name + ".rq")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Map<Map<String, String>, Integer> rows(final ResultSet rs) {
        final Map<Map<String, String>, Integer> rows = new HashMap<>();
        while (rs.hasNext()) {
            final QuerySolution s = rs.next();
            final Map<String, String> row = new HashMap<>();
            s.varNames().forEachRemaining(v -> row.put(v, NodeFmtLib.strNT(s.get(v).asNode())));
            rows.merge(row, 1, Integer::sum);
        }
        return rows;
    }
}
