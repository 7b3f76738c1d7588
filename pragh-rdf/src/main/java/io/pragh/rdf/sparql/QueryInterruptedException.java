package io.pragh.rdf.sparql;

/**
 * A query whose thread was interrupted while it explored (the SPARQL endpoint's timeout gave up on it): it stopped
 * between two steps, with the patterns it had not reached yet counted.
 *
 * <p>Example: {@code catch (QueryInterruptedException e) { reply(503, e.getMessage()); }}
 */
public final class QueryInterruptedException extends RuntimeException {
    public QueryInterruptedException(final int patternsLeft) {
        super("query interrupted with " + patternsLeft + " pattern(s) left to explore");
    }
}
