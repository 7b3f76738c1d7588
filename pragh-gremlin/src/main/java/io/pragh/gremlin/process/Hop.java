package io.pragh.gremlin.process;

import org.apache.tinkerpop.gremlin.structure.Direction;

import java.util.Arrays;

/**
 * One fused hop as the traversal wrote it: a direction and the edge label names to follow (every edge label when
 * none). Names become ids when the step runs, so labels created after the traversal was built are seen.
 *
 * <p>Example: {@code new Hop(Direction.OUT, "knows")}
 */
public final class Hop {
    public final Direction direction;
    public final String[] labels;

    public Hop(final Direction direction, final String... labels) {
        this.direction = direction;
        this.labels = labels;
    }

    @Override
    public String toString() {
        return direction.name().toLowerCase() + (labels.length == 0 ? "" : Arrays.toString(labels));
    }
}
