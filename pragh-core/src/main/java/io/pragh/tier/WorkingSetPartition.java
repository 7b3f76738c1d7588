package io.pragh.tier;

import java.util.Arrays;
import org.agrona.collections.LongArrayList;

/**
 * Fargraph's working-set partition for one machine and one round: which local values go out to far memory and which
 * far values come back, so that the machine's local value bytes end the round within its budget.
 * <ol>
 *   <li>Far values that turned hot come back first (most read first), as long as the budget can take them once
 *       values that are not hot went out: a hot value never pushes out another hot one, so the tier cannot thrash.</li>
 *   <li>While the local bytes exceed the budget, local values go out in this order: cold read-only, cold written,
 *       warm read-only, warm written, and only then hot ones (a budget is a budget), the least read first within
 *       each group. Read-only first, as in Fargraph: a value not written since the last round costs nothing to keep
 *       far but its reads.</li>
 *   <li>When nothing had to go out, far warm values come back (most read first) while less than
 *       {@link TieringConfig#warmKeptLocal} of the warm bytes is local and they fit.</li>
 * </ol>
 * Pure: it decides from a census and moves nothing, so it is tested without a cluster.
 *
 * <pre>{@code
 * WorkingSetPartition p = WorkingSetPartition.plan(census, config);
 * p.demote();   // keys to MIGRATE to memory nodes
 * p.promote();  // keys to MIGRATE back here
 * }</pre>
 */
final class WorkingSetPartition {
    /** Order keys: a 3-bit group, 27 bits of (capped) accesses, 32 bits of index; sorted as plain longs. */
    private static final long ACCESS_CAP = (1L << 27) - 1;

    private final LongArrayList demoteKeys = new LongArrayList();
    private final LongArrayList demoteSizes = new LongArrayList();
    private final LongArrayList promoteKeys = new LongArrayList();
    private long localAfter;

    private WorkingSetPartition() {
    }

    static WorkingSetPartition plan(ValueCensus c, TieringConfig config) {
        WorkingSetPartition p = new WorkingSetPartition();
        long budget = config.localBudgetBytes();
        long hot = config.hotAccesses();
        long local = c.localBytes();
        if (!config.bounded()) {
            p.localAfter = local;
            return p;
        }
        long notHotLocal = 0;
        for (int i = 0; i < c.localCount; i++) {
            if (Tier.of(c.localAccesses[i], hot) != Tier.HOT) {
                notHotLocal += c.localSizes[i];
            }
        }
        // 1. Hot far values back, if values that are not hot can make room for them.
        long[] far = farOrder(c, hot);
        for (long entry : far) {
            int i = (int) entry;
            if (Tier.of(c.farAccesses[i], hot) == Tier.HOT && local + c.farSizes[i] <= budget + notHotLocal) {
                p.promoteKeys.addLong(c.farKeys[i]);
                local += c.farSizes[i];
            }
        }
        // 2. Out, coldest groups first, until within the budget.
        boolean demoted = local > budget;
        if (demoted) {
            long[] order = new long[c.localCount];
            for (int i = 0; i < c.localCount; i++) {
                int group = 2 * (2 - Tier.of(c.localAccesses[i], hot).ordinal()) + (c.localReadOnly[i] ? 0 : 1);
                order[i] = ((long) group << 59) | (Math.min(ACCESS_CAP, c.localAccesses[i]) << 32) | i;
            }
            Arrays.sort(order);
            for (int k = 0; k < order.length && local > budget; k++) {
                int i = (int) order[k];
                p.demoteKeys.addLong(c.localKeys[i]);
                p.demoteSizes.addLong(c.localSizes[i]);
                local -= c.localSizes[i];
            }
        }
        // 3. Warm back, up to the share kept local, when there was room to spare.
        if (!demoted) {
            local = promoteWarm(c, config, far, local, p);
        }
        p.localAfter = local;
        return p;
    }

    private static long promoteWarm(ValueCensus c, TieringConfig config, long[] far, long local, WorkingSetPartition p) {
        long hot = config.hotAccesses();
        TierBytes bytes = c.bytes(hot);
        long warmLocal = bytes.localWarm();
        double keep = config.warmKeptLocal() * bytes.of(Tier.WARM);
        for (long entry : far) {
            int i = (int) entry;
            if (warmLocal >= keep) {
                break;
            }
            if (Tier.of(c.farAccesses[i], hot) == Tier.WARM && local + c.farSizes[i] <= config.localBudgetBytes()) {
                p.promoteKeys.addLong(c.farKeys[i]);
                local += c.farSizes[i];
                warmLocal += c.farSizes[i];
            }
        }
        return local;
    }

    /** Far values, most read first. */
    private static long[] farOrder(ValueCensus c, long hot) {
        long[] order = new long[c.farCount];
        for (int i = 0; i < c.farCount; i++) {
            order[i] = ((ACCESS_CAP - Math.min(ACCESS_CAP, c.farAccesses[i])) << 32) | i;
        }
        Arrays.sort(order);
        return order;
    }

    /** Local keys to move to memory nodes, in the order chosen. */
    LongArrayList demote() {
        return demoteKeys;
    }

    /** Their sizes, index for index. */
    LongArrayList demoteSizes() {
        return demoteSizes;
    }

    /** Far keys to move back to this machine. */
    LongArrayList promote() {
        return promoteKeys;
    }

    /** Local value bytes once the plan is carried out (and nothing else changed). */
    long localAfter() {
        return localAfter;
    }
}
