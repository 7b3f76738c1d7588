package io.pragh.rdf.sparql;

import org.apache.jena.graph.Node;
import org.apache.jena.graph.Triple;
import org.apache.jena.sparql.core.Var;

import java.util.List;

/**
 * The part of a SPARQL SELECT this store answers, as {@link QueryCompiler} found it: the triple patterns of one basic
 * graph pattern, the FILTERs (each a variable compared with a constant term), and the solution modifiers.
 *
 * @param patterns  the basic graph pattern, in the query's order
 * @param filters   conjuncts every solution must satisfy
 * @param project   the variables of a result row, in order (the count's variable when {@code count} is set)
 * @param distinct  DISTINCT (or REDUCED) on the projected rows
 * @param offset    rows to skip (0 when none)
 * @param limit     most rows to return (-1 when no LIMIT)
 * @param count     the COUNT aggregate, or null
 */
public record QueryShape(List<Triple> patterns, List<Filter> filters, List<Var> project, boolean distinct,
                         long offset, long limit, Count count) {

    /** {@code ?var = constant} ({@code equal}) or {@code ?var != constant}, compared as terms. */
    public record Filter(Var var, Node constant, boolean equal) {
    }

    /**
     * {@code (COUNT([DISTINCT] ?of | *) AS ?as)}: {@code of} null for {@code *}.
     */
    public record Count(Var as, Var of, boolean distinct) {
    }
}
