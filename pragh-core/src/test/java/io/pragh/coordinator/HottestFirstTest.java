package io.pragh.coordinator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HottestFirstTest {
    @Test
    void ordersIndicesByRateFromHighestToLowestWithNaNAndNegativeRatesLast() {
        double[] rates = {3.5, Double.NaN, 900, 0, 12.25, -1, 1e9, 0.001};
        int[] order = HottestFirst.order(rates, rates.length);
        assertArrayEquals(new int[] {6, 2, 4, 0, 7}, Arrays.copyOf(order, 5));
        // NaN, 0 and -1 all count as 0: any order among them.
        int[] zeros = Arrays.copyOfRange(order, 5, 8);
        Arrays.sort(zeros);
        assertArrayEquals(new int[] {1, 3, 5}, zeros);
    }

    @Test
    void considersOnlyTheFirstNRates() {
        double[] rates = {1, 2, 3, 100, 200};
        assertArrayEquals(new int[] {2, 1, 0}, HottestFirst.order(rates, 3));
        assertEquals(0, HottestFirst.order(rates, 0).length);
    }

    @Test
    void isAPermutationThatNeverPutsAClearlyCoolerRateBeforeAHotterOne() {
        Random random = new Random(21);
        double[] rates = new double[100_000];
        for (int i = 0; i < rates.length; i++) {
            // Rates as the monitors report them: accesses per second over many decades, with many ties.
            rates[i] = random.nextInt(4) == 0 ? random.nextInt(50) : Math.exp(random.nextDouble() * 30);
        }
        int[] order = HottestFirst.order(rates, rates.length);
        boolean[] seen = new boolean[rates.length];
        for (int i : order) {
            assertTrue(!seen[i], "index " + i + " twice");
            seen[i] = true;
        }
        for (int i = 1; i < order.length; i++) {
            double before = rates[order[i - 1]];
            double after = rates[order[i]];
            // Float precision: rates within one part in 2^23 may come in either order.
            assertTrue(before >= after * (1 - 1e-6), "rate " + after + " came after " + before + " at " + i);
        }
    }
}
