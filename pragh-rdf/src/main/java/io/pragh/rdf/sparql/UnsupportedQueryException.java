package io.pragh.rdf.sparql;

/**
 * A query outside the subset the store answers by exploration; the message names the construct.
 *
 * <p>Example: {@code catch (UnsupportedQueryException e) { reply(400, e.getMessage()); } // "OPTIONAL is not supported"}
 */
public final class UnsupportedQueryException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnsupportedQueryException(final String construct) {
        super(construct + " is not supported: the store answers basic graph patterns with FILTERs comparing a"
            + " variable with a constant, projection, DISTINCT, LIMIT/OFFSET and COUNT");
    }
}
