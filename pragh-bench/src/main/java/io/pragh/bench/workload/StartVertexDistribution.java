package io.pragh.bench.workload;

import java.util.SplittableRandom;

/**
 * Which of {@code scope} start vertices a query begins at: an index in {@code [0, scope)}, drawn with the caller's
 * random source so that each client thread is deterministic for its seed.
 *
 * <pre>{@code
 * StartVertexDistribution d = StartVertexDistribution.of("zipf", 1024);
 * int index = d.next(rng);
 * }</pre>
 */
public interface StartVertexDistribution {
    int next(SplittableRandom rng);

    int scope();

    /** {@code zipf} (YCSB Zipfian, theta 0.99) or {@code uniform}. */
    static StartVertexDistribution of(String name, int scope) {
        return switch (name) {
            case "zipf" -> new ZipfianDistribution(scope, ZipfianDistribution.YCSB_THETA);
            case "uniform" -> new UniformDistribution(scope);
            default -> throw new IllegalArgumentException("distribution '" + name + "' is not one of zipf, uniform");
        };
    }
}
