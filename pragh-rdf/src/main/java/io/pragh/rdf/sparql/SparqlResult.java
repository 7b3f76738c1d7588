package io.pragh.rdf.sparql;

import org.apache.jena.query.ResultSet;
import org.apache.jena.query.ResultSetFormatter;
import org.apache.jena.riot.out.NodeFmtLib;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.engine.binding.Binding;
import org.apache.jena.sparql.exec.RowSetStream;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A query's answer: the result variables and the rows as Jena bindings, written as SPARQL JSON by Jena's own
 * writer.
 *
 * <p>Example: {@code engine.query(q).writeJson(System.out);}
 */
public final class SparqlResult {
    private final List<Var> vars;
    private final List<Binding> rows;

    SparqlResult(final List<Var> vars, final List<Binding> rows) {
        this.vars = vars;
        this.rows = rows;
    }

    public List<Var> vars() {
        return vars;
    }

    public List<Binding> rows() {
        return rows;
    }

    /** The rows as maps from variable name to N-Triples form (unbound variables absent): for comparisons. */
    public List<Map<String, String>> rowsAsStrings() {
        final List<Map<String, String>> out = new ArrayList<>(rows.size());
        for (final Binding b : rows) {
            final Map<String, String> row = new HashMap<>();
            b.forEach((var, node) -> row.put(var.getVarName(), NodeFmtLib.strNT(node)));
            out.add(row);
        }
        return out;
    }

    /** A Jena result set over the rows, readable once. */
    public ResultSet toResultSet() {
        return ResultSet.adapt(RowSetStream.create(vars, rows.iterator()));
    }

    /** The SPARQL 1.1 Query Results JSON document. */
    public void writeJson(final OutputStream out) {
        ResultSetFormatter.outputAsJSON(out, toResultSet());
    }
}
