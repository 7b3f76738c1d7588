package io.pragh.coordinator;

import java.util.Arrays;

/**
 * The order of an interval's candidates by rate, hottest first, for the coordinator's budgets: one primitive sort of
 * packed words rather than a comparator over boxed indices or records. The control thread sorts up to hundreds of
 * thousands of candidates per interval; a comparator sort there ran TimSort with a type profile shared by every
 * sort in the JVM, whose class checks failed and sent {@link Coordinator} and {@link ReplicaPolicy} back to the JIT
 * several times per run (each a C2 compilation of 100-300 ms, taken from the query threads on a 2-core host).
 *
 * <p>Each word holds a rate as a float's bits above its candidate's index: rates are finite and non-negative, whose
 * float bits order as the rates do, so the words sort as the rates, and equal rates (at float precision) by index.
 *
 * <pre>{@code
 * int[] order = HottestFirst.order(rates, n);   // rates[order[0]] is the highest of rates[0..n)
 * }</pre>
 */
final class HottestFirst {
    private HottestFirst() {
    }

    /**
     * The indices {@code 0..n)} ordered by {@code rates[i]} from highest to lowest (a rate that is negative or NaN
     * counts as 0; equal rates keep no particular order).
     */
    static int[] order(double[] rates, int n) {
        long[] words = new long[n];
        for (int i = 0; i < n; i++) {
            double r = rates[i];
            float rate = r > 0 ? (float) r : 0f; // NaN compares false
            words[i] = ((long) Float.floatToIntBits(rate) << 32) | i;
        }
        Arrays.sort(words);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = (int) words[n - 1 - i];
        }
        return order;
    }
}
