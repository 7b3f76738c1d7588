package io.pragh.bench.traversal;

/**
 * The start vertices the query threads currently draw from: the distribution picks an index, this maps it to a
 * vertex. A dynamic workload swaps the whole array for another of the same size (a new, non-overlapping scope);
 * query threads see the swap at their next draw.
 *
 * <pre>{@code
 * StartVertices sv = new StartVertices(Arrays.copyOf(withEdges, 1024));
 * sv.replace(Arrays.copyOfRange(withEdges, 1024, 2048));
 * }</pre>
 */
public final class StartVertices {
    // Volatile: the publishing write of a new window is the only ordering the readers need (the array itself is
    // never written after it is published).
    private volatile int[] vertices;

    StartVertices(int[] vertices) {
        this.vertices = vertices.clone();
    }

    int at(int index) {
        return vertices[index];
    }

    public int size() {
        return vertices.length;
    }

    /** Publishes {@code next} (copied) as the new scope; it must have the size the distribution draws over. */
    public void replace(int[] next) {
        if (next.length != vertices.length) {
            throw new IllegalArgumentException("a new scope must keep " + vertices.length + " vertices, got "
                + next.length);
        }
        vertices = next.clone();
    }
}
