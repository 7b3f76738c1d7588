package io.pragh.chaos;

import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.LinearizabilityChecker;
import io.pragh.linearizability.Operation;
import io.pragh.linearizability.ValueModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

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
    private List<Operation> carriedReads = List.of();
    private List<Operation> carriedSeen = List.of();
    private List<Operation> carriedUnseen = List.of();
    private boolean first = true;
    private long newlyChecked;

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

    /**
     * Operations of the last window checked: its report's count less the carried operations it checked again (each
     * operation of a run is counted once, in its own window).
     */
    public long newlyChecked() {
        return newlyChecked;
    }

    /**
     * The carried operations a check placed: the barrier reads (all answered), and the carried writes the checker
     * keeps (those without bytes, and those whose bytes a read returned; see LinearizabilityChecker's checkable).
     */
    private long carriedChecked(List<Operation> carriedWrites, List<Operation> ops) {
        long n = carriedReads.size();
        List<Operation> withBytes = new ArrayList<>();
        for (Operation op : carriedWrites) {
            if (op.input() == null || op.input().length == 0) {
                n++;
            } else {
                withBytes.add(op);
            }
        }
        return n + LinearizabilityChecker.seenByReads(withBytes, ops).size();
    }

    /**
     * Checks one window, the previous window's barrier reads and unknown writes included. Of those writes, the ones a
     * read of the previous window saw took effect there, and a write takes effect once: they are left out, unless
     * the window then has no linearization, in which case it is checked again with them (a read may have seen the
     * same bytes written by another write).
     */
    public CheckReport check(ChaosWorkload.Window window) {
        return check(window.ops(), window.barrierReads());
    }

    /**
     * {@link #check(ChaosWorkload.Window)} of a window's operations and barrier reads, or of the share of them on
     * some keys: checking is per key, so several checks, each always given the same keys, may share a run's windows.
     */
    public CheckReport check(List<Operation> windowOps, List<Operation> barrierReads) {
        List<Operation> ops = new ArrayList<>(carried.size() + windowOps.size());
        ops.addAll(carriedReads);
        ops.addAll(carriedUnseen);
        ops.addAll(windowOps);
        CheckReport report = checker.check(ops, first);
        List<Operation> carriedWrites = carriedUnseen;
        if (!report.linearizable() && !carriedSeen.isEmpty()) {
            ops.addAll(carriedSeen);
            report = checker.check(ops, first);
            carriedWrites = new ArrayList<>(carriedUnseen);
            carriedWrites.addAll(carriedSeen);
        }
        newlyChecked = report.checked() - carriedChecked(carriedWrites, ops);
        first = false;
        carriedReads = barrierReads;
        List<Operation> unknown = new ArrayList<>();
        for (Operation op : windowOps) {
            if (op.kind().writes() && !op.completed()) {
                unknown.add(op);
            }
        }
        Set<Operation> seen = LinearizabilityChecker.seenByReads(unknown, windowOps);
        carriedSeen = new ArrayList<>();
        carriedUnseen = new ArrayList<>();
        for (Operation op : unknown) {
            (seen.contains(op) ? carriedSeen : carriedUnseen).add(op);
        }
        carried = new ArrayList<>(carriedReads);
        carried.addAll(unknown);
        return report;
    }
}
