package io.pragh.bench.workload;

import java.util.SplittableRandom;

/**
 * Every start vertex equally likely.
 *
 * <pre>{@code
 * int index = new UniformDistribution(1024).next(rng);
 * }</pre>
 */
public record UniformDistribution(int scope) implements StartVertexDistribution {
    public UniformDistribution {
        if (scope < 1) {
            throw new IllegalArgumentException("scope must be >= 1, got " + scope);
        }
    }

    @Override
    public int next(SplittableRandom rng) {
        return rng.nextInt(scope);
    }
}
