package io.pragh.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfianDistributionTest {
    private static int[] histogram(StartVertexDistribution d, long seed, int draws) {
        SplittableRandom rng = new SplittableRandom(seed);
        int[] counts = new int[d.scope()];
        for (int i = 0; i < draws; i++) {
            counts[d.next(rng)]++;
        }
        return counts;
    }

    private static double expectedMass(ZipfianDistribution z, int from, int to) {
        double p = 0;
        for (int i = from; i < to; i++) {
            p += z.probability(i);
        }
        return p;
    }

    @Test
    void drawsFollowTheZipfLawExactlyAtTheHeadAndApproximatelyInTheTail() {
        ZipfianDistribution z = new ZipfianDistribution(1024, ZipfianDistribution.YCSB_THETA);
        int draws = 400_000;
        int[] counts = histogram(z, 1, draws);
        // Gray's method draws indices 0 and 1 exactly and the rest from a continuous approximation.
        for (int i = 0; i < 2; i++) {
            double expected = z.probability(i) * draws;
            assertEquals(expected, counts[i], 0.03 * expected, "index " + i);
        }
        // Octaves of a theta 0.99 law carry nearly equal mass: [8,16) vs [256,512) within 20% of the exact ratio.
        long low = 0;
        long high = 0;
        for (int i = 8; i < 16; i++) {
            low += counts[i];
        }
        for (int i = 256; i < 512; i++) {
            high += counts[i];
        }
        double exactRatio = expectedMass(z, 256, 512) / expectedMass(z, 8, 16);
        assertEquals(exactRatio, (double) high / low, 0.2 * exactRatio, "octave mass ratio");
        assertTrue(counts[0] > 50 * Math.max(1, counts[1000]), "rank 0 vs rank 1000");
    }

    @Test
    void everyDrawIsInsideTheScope() {
        for (int scope : new int[] {1, 2, 3, 1000}) {
            int[] counts = histogram(new ZipfianDistribution(scope, 0.99), 2, 10_000);
            assertEquals(scope, counts.length);
        }
    }

    @Test
    void theSameSeedGivesTheSameSequence() {
        ZipfianDistribution z = new ZipfianDistribution(1 << 16, 0.99);
        SplittableRandom a = new SplittableRandom(9);
        SplittableRandom b = new SplittableRandom(9);
        for (int i = 0; i < 1000; i++) {
            assertEquals(z.next(a), z.next(b));
        }
    }

    @Test
    void uniformDrawsSpreadEvenly() {
        int[] counts = histogram(new UniformDistribution(16), 3, 160_000);
        for (int i = 0; i < 16; i++) {
            assertEquals(10_000, counts[i], 500, "index " + i);
        }
    }

    @Test
    void distributionsAreChosenByNameAndUnknownNamesRefused() {
        assertTrue(StartVertexDistribution.of("zipf", 8) instanceof ZipfianDistribution);
        assertTrue(StartVertexDistribution.of("uniform", 8) instanceof UniformDistribution);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> StartVertexDistribution.of("pareto", 8));
        assertTrue(e.getMessage().contains("pareto"), e.getMessage());
    }
}
