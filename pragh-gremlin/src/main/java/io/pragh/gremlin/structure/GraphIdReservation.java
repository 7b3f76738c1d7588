package io.pragh.gremlin.structure;

/**
 * Lets a bulk load outside this package reserve the vertex ids it writes, as a supplied id is reserved: the graph
 * (and every graph over its store) then never assigns them.
 *
 * <p>Example: {@code GraphIdReservation.reserve(graph, edges.maxVid());}
 */
public final class GraphIdReservation {
    private GraphIdReservation() {
    }

    /** Makes sure {@code graph} never hands out an id at or below {@code maxId}'s block position. */
    public static void reserve(final PraghGraph graph, final long maxId) {
        if (maxId >= 0) {
            graph.claimUserId(maxId, true);
        }
    }
}
