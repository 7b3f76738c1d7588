package io.pragh.gremlin.hotspot;

import java.util.Arrays;

/**
 * Where a hot view's members should live: each machine gets a quota of members in proportion to its share of the
 * view's reads (largest remainders round it, so the quotas sum to the members), a member stays on its host while
 * that host has quota left, and the others fill the rest, machine by machine. Every machine reading alike gives
 * Concerto's even spread; one machine reading alone gathers every member there, which is also where it is read.
 * Moves are as few as the quotas allow: a member already on a machine with quota never moves.
 *
 * <p>Example: {@code int[] to = HotspotPlacement.plan(new long[] {0, 0, 90, 0}, hosts);  // every member to 2}
 */
final class HotspotPlacement {
    private HotspotPlacement() {
    }

    /**
     * The machine each member should be on, given the reads of the view per reading machine ({@code reads[m]}) and
     * each member's current host ({@code hosts[i]}); {@code hosts} is left as it was.
     *
     * @throws IllegalArgumentException when no machine read the view (there is nothing to place by)
     */
    static int[] plan(final long[] reads, final int[] hosts) {
        final long total = Arrays.stream(reads).sum();
        if (total <= 0) {
            throw new IllegalArgumentException("no reads to place a view's members by: " + Arrays.toString(reads));
        }
        final int[] quota = quotas(reads, total, hosts.length);
        final int[] to = new int[hosts.length];
        Arrays.fill(to, -1);
        for (int i = 0; i < hosts.length; i++) {
            final int h = hosts[i];
            if (h >= 0 && h < quota.length && quota[h] > 0) {
                quota[h]--;
                to[i] = h;
            }
        }
        int m = 0;
        for (int i = 0; i < hosts.length; i++) {
            if (to[i] < 0) {
                while (quota[m] == 0) {
                    m++;
                }
                quota[m]--;
                to[i] = m;
            }
        }
        return to;
    }

    /** {@code members} split in proportion to {@code reads}, remainders to the largest fractions (lowest id first). */
    static int[] quotas(final long[] reads, final long total, final int members) {
        final int[] quota = new int[reads.length];
        final double[] rest = new double[reads.length];
        int given = 0;
        for (int m = 0; m < reads.length; m++) {
            final double exact = (double) members * reads[m] / total;
            quota[m] = (int) Math.floor(exact);
            rest[m] = exact - quota[m];
            given += quota[m];
        }
        for (; given < members; given++) {
            int best = 0;
            for (int m = 1; m < reads.length; m++) {
                if (rest[m] > rest[best]) {
                    best = m;
                }
            }
            quota[best]++;
            rest[best] = -1;
        }
        return quota;
    }
}
