package io.pragh.bench.workload;

import java.util.SplittableRandom;

/**
 * YCSB's Zipfian generator (Gray et al., "Quickly generating billion-record synthetic databases"): index {@code i}
 * is drawn with probability proportional to {@code 1 / (i + 1)^theta}, index 0 the most popular. Constant time per
 * draw after an O(scope) computation of the zeta constant.
 *
 * <pre>{@code
 * ZipfianDistribution z = new ZipfianDistribution(1024, ZipfianDistribution.YCSB_THETA);
 * int index = z.next(rng);
 * }</pre>
 */
public final class ZipfianDistribution implements StartVertexDistribution {
    public static final double YCSB_THETA = 0.99;

    private final int scope;
    private final double theta;
    private final double zetan;
    private final double alpha;
    private final double eta;
    private final double secondThreshold;

    public ZipfianDistribution(int scope, double theta) {
        if (scope < 1) {
            throw new IllegalArgumentException("scope must be >= 1, got " + scope);
        }
        if (!(theta > 0 && theta < 1)) {
            throw new IllegalArgumentException("theta must be in (0, 1), got " + theta);
        }
        this.scope = scope;
        this.theta = theta;
        this.zetan = zeta(scope, theta);
        double zeta2 = zeta(2, theta);
        this.alpha = 1.0 / (1.0 - theta);
        this.eta = (1 - Math.pow(2.0 / scope, 1 - theta)) / (1 - zeta2 / zetan);
        this.secondThreshold = 1 + Math.pow(0.5, theta);
    }

    static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1 / Math.pow(i, theta);
        }
        return sum;
    }

    /** Probability of index {@code i} under the exact Zipf law this generator approximates. */
    public double probability(int i) {
        return 1 / Math.pow(i + 1, theta) / zetan;
    }

    @Override
    public int scope() {
        return scope;
    }

    @Override
    public int next(SplittableRandom rng) {
        double u = rng.nextDouble();
        double uz = u * zetan;
        if (uz < 1) {
            return 0;
        }
        if (uz < secondThreshold) {
            return Math.min(1, scope - 1);
        }
        return (int) Math.min(scope - 1, (long) (scope * Math.pow(eta * u - eta + 1, alpha)));
    }
}
