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
        return query(QueryCompiler.compile(sparql));
    }

    /**
     * {@code sparql} compiled once, to be run many times with its variable {@code ?parameter} bound to a constant each
     * time ({@link Prepared#query}), as Wukong's query templates are parsed once and instantiated per start vertex:
     * parsing with ARQ is a third of a small LUBM query's CPU, paid again for every run of a query text. The
     * parameter must occur in the pattern, as a subject or object, and nowhere else (not projected, counted or
     * filtered on), so that a run means exactly the query with the constant written in its place.
     *
     * <p>Example: {@code engine.prepare("SELECT ?x WHERE { ?x <http://p> ?d }", "d").query(NodeFactory.createURI("http://d1"))}
     *
     * @throws IllegalArgumentException when {@code ?parameter} is missing from the pattern or used elsewhere
     */
    public Prepared prepare(final String sparql, final String parameter) {
        return new Prepared(QueryCompiler.compile(sparql), Var.alloc(parameter));
    }

    /** A compiled query with one variable to bind per run ({@link #prepare}); immutable, any thread may run it. */
    public final class Prepared {
        private final QueryShape shape;
        private final Var parameter;

        private Prepared(final QueryShape shape, final Var parameter) {
            final String refused = shape.project().contains(parameter) ? "projected"
                : shape.count() != null && (parameter.equals(shape.count().of()) || parameter.equals(shape.count().as()))
                ? "counted"
                : shape.filters().stream().anyMatch(f -> f.var().equals(parameter)) ? "filtered on" : null;
            if (refused != null) {
                throw new IllegalArgumentException("the parameter " + parameter + " is " + refused
                    + "; only a variable used nowhere but as a subject or object of the pattern can be bound");
            }
            if (shape.patterns().stream().noneMatch(t -> parameter.equals(t.getSubject())
                || parameter.equals(t.getObject()))) {
                throw new IllegalArgumentException("the parameter " + parameter + " is not a subject or object of the"
                    + " query's pattern " + shape.patterns());
            }
            this.shape = shape;
            this.parameter = parameter;
        }

        /** The query's answer with the parameter replaced by {@code value} (an IRI or a literal). */
        public SparqlResult query(final Node value) {
            if (value == null || !value.isConcrete()) {
                throw new IllegalArgumentException("a parameter's value must be an IRI or a literal, got " + value);
            }
            final List<Triple> bound = new ArrayList<>(shape.patterns().size());
            for (final Triple t : shape.patterns()) {
                bound.add(Triple.create(parameter.equals(t.getSubject()) ? value : t.getSubject(), t.getPredicate(),
                    parameter.equals(t.getObject()) ? value : t.getObject()));
            }
            return SparqlEngine.this.query(new QueryShape(bound, shape.filters(), shape.project(), shape.distinct(),
                shape.offset(), shape.limit(), shape.count()));
        }
    }

    private SparqlResult query(final QueryShape q) {
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
