package io.pragh.chaos;

import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.LinearizabilityChecker;
import io.pragh.linearizability.Operation;
import io.pragh.linearizability.ValueModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a {@link ChaosWorkload}'s history window by window, so that a run of any length keeps only one window in
 * memory. The first window starts from empty keys; each later one starts from an unknown value (sound whatever came
 * before) pinned down by the previous barrier's reads, which it checks again together with the previous window's
 * writes of unknown outcome (they may take effect after the barrier). A write of unknown outcome that took effect
 * more than a window later would show as a violation: the barrier waits for every injected delay and removes every
 * hold first, so only the store itself can make one that late.
 *
 * <pre>{@code
 * WindowedCheck check = new WindowedCheck();
 * CheckReport r = check.check(workload.runWindow(5_000));
 * }</pre>
 */
public final class WindowedCheck {
    private final LinearizabilityChecker<ValueModel.State> checker;
    private List<Operation> carried = List.of();
    private boolean first = true;

    public WindowedCheck() {
        this(LinearizabilityChecker.forValues());
    }

    public WindowedCheck(LinearizabilityChecker<ValueModel.State> checker) {
        this.checker = checker;
    }

    /** Operations the next check carries over from the last window. */
    public int carried() {
        return carried.size();
    }

    /** Checks one window, the previous window's barrier reads and unknown writes included. */
    public CheckReport check(ChaosWorkload.Window window) {
        List<Operation> ops = new ArrayList<>(carried.size() + window.ops().size());
        ops.addAll(carried);
        ops.addAll(window.ops());
        CheckReport report = checker.check(ops, first);
        first = false;
        List<Operation> next = new ArrayList<>(window.barrierReads());
        for (Operation op : window.ops()) {
            if (op.kind().writes() && !op.completed()) {
                next.add(op);
            }
        }
        carried = next;
        return report;
    }
}
