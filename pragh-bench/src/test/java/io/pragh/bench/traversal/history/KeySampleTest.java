package io.pragh.bench.traversal.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.KeyLayout;
import org.junit.jupiter.api.Test;

/** A sample of about the asked number of keys, by key hash; none and all at the ends. */
class KeySampleTest {
    private static int count(KeySample s, int population) {
        int n = 0;
        for (int v = 0; v < population; v++) {
            if (s.observes(KeyLayout.key(v, 0, KeyLayout.OUT))) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aboutTheAskedNumberOfKeysAreSampled() {
        int n = count(KeySample.of(1024, 100_000), 100_000);
        // Binomial: mean 1024, standard deviation about 32; ten of them either side.
        assertTrue(n > 700 && n < 1350, n + " keys sampled");
        assertEquals(1024 / 100_000.0, KeySample.of(1024, 100_000).rate(), 1e-9);
    }

    @Test
    void noneForZeroAndAllWhenAskedForAsManyAsThereAre() {
        assertEquals(0, count(KeySample.of(0, 5_000), 5_000));
        assertEquals(5_000, count(KeySample.of(5_000, 5_000), 5_000));
        assertEquals(5_000, count(KeySample.all(), 5_000));
    }
}
