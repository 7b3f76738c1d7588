package io.pragh.rdf.sparql;

import io.pragh.rdf.store.RdfStore;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;
import org.apache.jena.datatypes.xsd.XSDDatatype;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.graph.Triple;
import org.apache.jena.riot.out.NodeFmtLib;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.engine.binding.Binding;
import org.apache.jena.sparql.engine.binding.BindingBuilder;
import org.apache.jena.sparql.util.NodeFactoryExtra;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SPARQL over an {@link RdfStore}: compile ({@link QueryCompiler}), look every constant up in one batch (a constant
 * the store lacks means no solution, unless only a {@code !=} names it), explore ({@link Explorer}), then the
 * modifiers on the id table (COUNT, projection, DISTINCT, OFFSET/LIMIT), and only then one batch of dictionary GETs
 * for the ids left, turned into Jena nodes.
 *
 * <p>Example: {@code SparqlResult r = new SparqlEngine(rdf).query("SELECT ?x WHERE { ?x a <http://C> }");}
 */
public final class SparqlEngine {
    private final RdfStore rdf;

    public SparqlEngine(final RdfStore rdf) {
        this.rdf = rdf;
    }

    public SparqlResult query(final String sparql) {
        final QueryShape q = QueryCompiler.compile(sparql);
        final Table table = solutions(q);
        if (q.count() != null) {
            final Binding row = BindingBuilder.create()
                .add(q.count().as(), NodeFactory.createLiteralDT(Long.toString(count(table, q.count())),
                    XSDDatatype.XSDinteger)).build();
            final List<Binding> rows = q.project().contains(q.count().as()) ? List.of(row) : List.of(org.apache.jena.sparql.engine.binding.BindingFactory.empty());
            return new SparqlResult(q.project(), slice(rows, q.offset(), q.limit()));
        }
        return new SparqlResult(q.project(), bindings(table, q));
    }

    /** The table of solutions of the pattern and its filters, or an empty one when a needed constant is unknown. */
    private Table solutions(final QueryShape q) {
        final List<String> forms = new ArrayList<>();
        for (final Triple t : q.patterns()) {
            forms.add(t.getSubject().isVariable() ? null : NodeFmtLib.strNT(t.getSubject()));
            forms.add(t.getObject().isVariable() ? null : NodeFmtLib.strNT(t.getObject()));
        }
        for (final QueryShape.Filter f : q.filters()) {
            forms.add(NodeFmtLib.strNT(f.constant()));
        }
        final String[] known = forms.stream().filter(f -> f != null).toArray(String[]::new);
        final long[] found = rdf.terms().ids(known, known.length);
        final List<Explorer.Pattern> patterns = new ArrayList<>();
        int k = 0;
        for (final Triple t : q.patterns()) {
            final int p = rdf.predicate(NodeFmtLib.strNT(t.getPredicate()));
            final long s = t.getSubject().isVariable() ? 0 : found[k++];
            final long o = t.getObject().isVariable() ? 0 : found[k++];
            if (p < 0 || s < 0 || o < 0) {
                return Table.empty();
            }
            patterns.add(new Explorer.Pattern(var(t.getSubject()), s, p, var(t.getObject()), o));
        }
        final List<Explorer.Filter> filters = new ArrayList<>();
        for (final QueryShape.Filter f : q.filters()) {
            filters.add(new Explorer.Filter(f.var(), found[k++], f.equal()));
        }
        return new Explorer(rdf.store()).explore(patterns, filters);
    }

    private static Var var(final Node node) {
        return node.isVariable() ? Var.alloc(node) : null;
    }

    private static long count(final Table table, final QueryShape.Count c) {
        if (!c.distinct()) {
            return c.of() == null || table.column(c.of()) >= 0 ? table.rows() : 0;
        }
        final List<Var> over = c.of() == null ? named(table.vars()) : List.of(c.of());
        return distinctRows(table, columns(table, over), table.rows()).length;
    }

    /** The variables a user named ({@code *} leaves out the blank nodes of the pattern). */
    private static List<Var> named(final List<Var> vars) {
        return vars.stream().filter(v -> !v.isBlankNodeVar()).toList();
    }

    /** The projected rows as bindings: DISTINCT and the slice on ids, then one batch of term GETs. */
    private List<Binding> bindings(final Table table, final QueryShape q) {
        final int[] columns = columns(table, q.project());
        int[] rows = q.distinct() ? distinctRows(table, columns, table.rows()) : identity(table.rows());
        final long from = Math.min(rows.length, q.offset());
        final long to = q.limit() < 0 ? rows.length : Math.min(rows.length, from + q.limit());
        rows = Arrays.copyOfRange(rows, (int) from, (int) to);
        final Long2ObjectHashMap<Node> nodes = nodes(table, columns, rows);
        final List<Binding> out = new ArrayList<>(rows.length);
        for (final int r : rows) {
            final BindingBuilder b = BindingBuilder.create();
            for (int c = 0; c < columns.length; c++) {
                if (columns[c] >= 0) {
                    b.add(q.project().get(c), nodes.get(table.value(columns[c], r)));
                }
            }
            out.add(b.build());
        }
        return out;
    }

    /** Every distinct id the rows show, as a Jena node: one batch of dictionary GETs. */
    private Long2ObjectHashMap<Node> nodes(final Table table, final int[] columns, final int[] rows) {
        final Long2ObjectHashMap<Node> nodes = new Long2ObjectHashMap<>();
        final LongHashSet seen = new LongHashSet();
        final long[] ids = new long[rows.length * Math.max(1, columns.length)];
        int n = 0;
        for (final int r : rows) {
            for (final int c : columns) {
                if (c >= 0 && seen.add(table.value(c, r))) {
                    ids[n++] = table.value(c, r);
                }
            }
        }
        final String[] forms = rdf.terms().forms(ids, n);
        for (int i = 0; i < n; i++) {
            nodes.put(ids[i], NodeFactoryExtra.parseNode(forms[i]));
        }
        return nodes;
    }

    private static int[] columns(final Table table, final List<Var> vars) {
        final int[] columns = new int[vars.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = table.column(vars.get(i));
        }
        return columns;
    }

    private static int[] identity(final int n) {
        final int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        return rows;
    }

    /** The first row of each distinct combination of {@code columns}, in table order. */
    private static int[] distinctRows(final Table table, final int[] columns, final int rows) {
        return new RowSet(table, columns, rows).distinct();
    }

    private static List<Binding> slice(final List<Binding> rows, final long offset, final long limit) {
        final int from = (int) Math.min(rows.size(), offset);
        final int to = limit < 0 ? rows.size() : (int) Math.min(rows.size(), from + limit);
        return rows.subList(from, to);
    }
}
