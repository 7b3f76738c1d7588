package io.pragh.rdf.sparql;

import org.apache.jena.graph.Node;
import org.apache.jena.graph.Triple;
import org.apache.jena.datatypes.xsd.XSDDatatype;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.QueryParseException;
import org.apache.jena.sparql.algebra.Algebra;
import org.apache.jena.sparql.algebra.Op;
import org.apache.jena.sparql.algebra.op.OpBGP;
import org.apache.jena.sparql.algebra.op.OpConditional;
import org.apache.jena.sparql.algebra.op.OpDistinct;
import org.apache.jena.sparql.algebra.op.OpExtend;
import org.apache.jena.sparql.algebra.op.OpFilter;
import org.apache.jena.sparql.algebra.op.OpGraph;
import org.apache.jena.sparql.algebra.op.OpGroup;
import org.apache.jena.sparql.algebra.op.OpJoin;
import org.apache.jena.sparql.algebra.op.OpLeftJoin;
import org.apache.jena.sparql.algebra.op.OpMinus;
import org.apache.jena.sparql.algebra.op.OpOrder;
import org.apache.jena.sparql.algebra.op.OpPath;
import org.apache.jena.sparql.algebra.op.OpProject;
import org.apache.jena.sparql.algebra.op.OpPropFunc;
import org.apache.jena.sparql.algebra.op.OpReduced;
import org.apache.jena.sparql.algebra.op.OpSequence;
import org.apache.jena.sparql.algebra.op.OpService;
import org.apache.jena.sparql.algebra.op.OpSlice;
import org.apache.jena.sparql.algebra.op.OpTable;
import org.apache.jena.sparql.algebra.op.OpUnion;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.expr.E_Equals;
import org.apache.jena.sparql.expr.E_LogicalAnd;
import org.apache.jena.sparql.expr.E_LogicalNot;
import org.apache.jena.sparql.expr.E_NotEquals;
import org.apache.jena.sparql.expr.E_SameTerm;
import org.apache.jena.sparql.expr.Expr;
import org.apache.jena.sparql.expr.ExprAggregator;
import org.apache.jena.sparql.expr.ExprFunction2;
import org.apache.jena.sparql.expr.aggregate.AggCount;
import org.apache.jena.sparql.expr.aggregate.AggCountDistinct;
import org.apache.jena.sparql.expr.aggregate.AggCountVar;
import org.apache.jena.sparql.expr.aggregate.AggCountVarDistinct;
import org.apache.jena.sparql.expr.aggregate.Aggregator;
import org.apache.jena.sparql.util.ExprUtils;
import org.apache.jena.vocabulary.RDF;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses a SPARQL query with Jena ARQ, compiles it to algebra ({@code Algebra.compile}) and reads the operators
 * outside in, each in its place: slice, distinct, project, the COUNT's extend over a group, filters, one basic graph
 * pattern. Anything else is refused with an {@link UnsupportedQueryException} naming the construct (OPTIONAL, UNION,
 * property paths, ORDER BY, ...), never answered partly.
 *
 * <p>Example: {@code QueryShape q = QueryCompiler.compile("SELECT ?x WHERE { ?x a <http://C> } LIMIT 5");}
 */
public final class QueryCompiler {
    private QueryCompiler() {
    }

    /** The query's shape; a syntax error or an unsupported construct is an exception naming it. */
    public static QueryShape compile(final String sparql) {
        final Query query;
        try {
            query = QueryFactory.create(sparql);
        } catch (QueryParseException e) {
            throw new IllegalArgumentException("SPARQL syntax error: " + e.getMessage(), e);
        }
        if (!query.isSelectType()) {
            throw new UnsupportedQueryException(query.queryType().name() + " queries (only SELECT is supported)");
        }
        Op op = Algebra.compile(query);
        long offset = 0;
        long limit = -1;
        boolean distinct = false;
        List<Var> project = query.getProjectVars();
        QueryShape.Count count = null;
        final List<QueryShape.Filter> filters = new ArrayList<>();
        if (op instanceof OpSlice slice) {
            offset = Math.max(0, slice.getStart());
            limit = slice.getLength() == Query.NOLIMIT ? -1 : slice.getLength();
            op = slice.getSubOp();
        }
        if (op instanceof OpDistinct d) {
            distinct = true;
            op = d.getSubOp();
        } else if (op instanceof OpReduced r) {
            distinct = true;
            op = r.getSubOp();
        }
        if (op instanceof OpProject p) {
            project = p.getVars();
            op = p.getSubOp();
        }
        if (op instanceof OpExtend extend && extend.getSubOp() instanceof OpGroup group) {
            count = count(extend, group);
            op = group.getSubOp();
        }
        while (op instanceof OpFilter f) {
            for (final Expr e : f.getExprs()) {
                filter(e, filters);
            }
            op = f.getSubOp();
        }
        if (!(op instanceof OpBGP bgp)) {
            throw new UnsupportedQueryException(construct(op));
        }
        final List<Triple> patterns = bgp.getPattern().getList();
        if (patterns.isEmpty()) {
            throw new UnsupportedQueryException("an empty group pattern");
        }
        for (final Triple t : patterns) {
            if (!t.getPredicate().isURI()) {
                throw new UnsupportedQueryException("a variable predicate (" + t.getPredicate() + " in " + t + ")");
            }
        }
        return new QueryShape(patterns, filters, project, distinct, offset, limit, count);
    }

    /** {@code (COUNT(...) AS ?c)}: one aggregate, no GROUP BY, the extend naming its result. */
    private static QueryShape.Count count(final OpExtend extend, final OpGroup group) {
        if (!group.getGroupVars().isEmpty()) {
            throw new UnsupportedQueryException("GROUP BY");
        }
        if (group.getAggregators().size() != 1 || extend.getVarExprList().size() != 1) {
            throw new UnsupportedQueryException("more than one aggregate or expression in SELECT");
        }
        final ExprAggregator agg = group.getAggregators().get(0);
        final Var as = extend.getVarExprList().getVars().get(0);
        final Expr value = extend.getVarExprList().getExpr(as);
        if (!value.isVariable() || !value.asVar().equals(agg.getVar())) {
            throw new UnsupportedQueryException("an expression over an aggregate (" + value + ")");
        }
        final Aggregator a = agg.getAggregator();
        if (a instanceof AggCount) {
            return new QueryShape.Count(as, null, false);
        }
        if (a instanceof AggCountDistinct) {
            return new QueryShape.Count(as, null, true);
        }
        if (a instanceof AggCountVar || a instanceof AggCountVarDistinct) {
            final Expr of = a.getExprList().get(0);
            if (!of.isVariable()) {
                throw new UnsupportedQueryException("COUNT of an expression (" + of + ")");
            }
            return new QueryShape.Count(as, of.asVar(), a instanceof AggCountVarDistinct);
        }
        throw new UnsupportedQueryException("the aggregate " + a.getName() + " (only COUNT is supported)");
    }

    /** One FILTER conjunct: {@code ?x = c}, {@code ?x != c}, {@code sameTerm(?x, c)} or its negation. */
    private static void filter(final Expr e, final List<QueryShape.Filter> filters) {
        if (e instanceof E_LogicalAnd and) {
            filter(and.getArg1(), filters);
            filter(and.getArg2(), filters);
            return;
        }
        boolean equal = true;
        Expr cmp = e;
        if (e instanceof E_LogicalNot not && not.getArg() instanceof E_SameTerm) {
            equal = false;
            cmp = not.getArg();
        }
        if (cmp instanceof E_NotEquals) {
            equal = false;
        }
        if (cmp instanceof E_Equals || cmp instanceof E_NotEquals || cmp instanceof E_SameTerm) {
            final ExprFunction2 f = (ExprFunction2) cmp;
            final Expr var = f.getArg1().isVariable() ? f.getArg1() : f.getArg2();
            final Expr constant = var == f.getArg1() ? f.getArg2() : f.getArg1();
            if (var.isVariable() && constant.isConstant()) {
                final Node node = constant.getConstant().asNode();
                if (!(cmp instanceof E_SameTerm) && node.isLiteral() && !isString(node)) {
                    throw new UnsupportedQueryException("FILTER " + sparql(e) + ": '=' on a typed"
                        + " literal compares values; compare IRIs or strings, or use sameTerm");
                }
                filters.add(new QueryShape.Filter(var.asVar(), node, equal));
                return;
            }
        }
        throw new UnsupportedQueryException("FILTER " + sparql(e) + " (only ?var = constant,"
            + " ?var != constant and sameTerm joined by && are supported)");
    }

    /** An expression as SPARQL writes it, in parentheses as a FILTER takes it. */
    private static String sparql(final Expr e) {
        final String s = ExprUtils.fmtSPARQL(e);
        return s.startsWith("(") ? s : "(" + s + ")";
    }

    /** A literal whose value is its term: a string or a language-tagged string. */
    private static boolean isString(final Node literal) {
        final String type = literal.getLiteralDatatypeURI();
        return type == null || type.equals(XSDDatatype.XSDstring.getURI()) || type.equals(RDF.langString.getURI());
    }

    /** The name a user knows for an operator this store does not evaluate. */
    static String construct(final Op op) {
        if (op instanceof OpLeftJoin || op instanceof OpConditional) {
            return "OPTIONAL";
        }
        if (op instanceof OpUnion) {
            return "UNION";
        }
        if (op instanceof OpPath) {
            return "property paths (" + ((OpPath) op).getTriplePath() + ")";
        }
        if (op instanceof OpPropFunc) {
            return "property functions";
        }
        if (op instanceof OpMinus) {
            return "MINUS";
        }
        if (op instanceof OpOrder) {
            return "ORDER BY";
        }
        if (op instanceof OpGraph) {
            return "GRAPH";
        }
        if (op instanceof OpService) {
            return "SERVICE";
        }
        if (op instanceof OpTable t) {
            return t.isJoinIdentity() ? "an empty group pattern" : "VALUES";
        }
        if (op instanceof OpExtend) {
            return "BIND (or an expression in SELECT)";
        }
        if (op instanceof OpGroup) {
            return "GROUP BY or an aggregate";
        }
        if (op instanceof OpJoin || op instanceof OpSequence) {
            return "a join of group patterns (nested { } or a sub-query)";
        }
        if (op instanceof OpProject || op instanceof OpSlice || op instanceof OpDistinct) {
            return "a sub-query";
        }
        if (op instanceof OpFilter) {
            return "a FILTER inside a nested group";
        }
        return "the SPARQL construct '" + op.getName() + "'";
    }
}
