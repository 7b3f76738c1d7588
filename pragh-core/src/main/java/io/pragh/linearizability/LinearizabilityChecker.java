package io.pragh.linearizability;

import io.pragh.linearizability.LinearizationSearch.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a history is linearizable, key by key, by search. Linearizability is local (Herlihy and Wing's
 * P-compositionality): a history is linearizable exactly when each key's sub-history is, so every key is searched on
 * its own. The search is Wing and Gong's, in Lowe's just-in-time form with memoization, as in Porcupine: walk the
 * invocations and responses in time order, tentatively linearize an operation whose invocation has been reached when
 * the {@link Model} accepts its answer in the current state, backtrack on reaching a response whose operation is not
 * yet linearized, and never explore the same (operations linearized, state) pair twice ({@link LinearizationSearch}).
 *
 * <p>Operations with an unknown outcome ({@link Operation#UNKNOWN} response): a write may take effect at any time
 * after its invocation or never, so the search may linearize it anywhere after its invocation or leave it out; a
 * read tells nothing and is left out. A failed write whose bytes no read ever returned is left out before the search
 * (leaving it out cannot change what any read saw), which keeps many failed writes from multiplying the search.
 *
 * <p>On a violation the key's history is narrowed to a window: the shortest prefix (cut at a response time; writes
 * still running at the cut become unknown, reads still running are dropped) that has no linearization, then the
 * latest start from which the rest still has none, checked from an unknown state and cut only where every dropped
 * operation precedes every kept one in real time. Both steps keep only cuts that are sound: the window's violation
 * is a violation of the whole history.
 *
 * <pre>{@code
 * LinearizabilityChecker<ValueModel.State> checker = LinearizabilityChecker.forValues();
 * CheckReport report = checker.check(history.drain());
 * assertTrue(report.linearizable(), report.describe(Operation.ValueFormat.HEX, 3));
 * }</pre>
 *
 * @param <S> the model's state type
 */
public final class LinearizabilityChecker<S> {
    /** Memoized (linearized set, state) pairs one key's search may hold before it gives up undecided. */
    public static final int DEFAULT_MAX_STATES = 1_000_000;

    private final Model<S> model;
    private final LinearizationSearch<S> searcher;

    public LinearizabilityChecker(Model<S> model, int maxStates) {
        if (maxStates < 1) {
            throw new IllegalArgumentException("maxStates must be >= 1, got " + maxStates);
        }
        this.model = model;
        this.searcher = new LinearizationSearch<>(model, maxStates);
    }

    /** A checker for the store's values ({@link ValueModel}) with the default state budget. */
    public static LinearizabilityChecker<ValueModel.State> forValues() {
        return new LinearizabilityChecker<>(ValueModel.INSTANCE, DEFAULT_MAX_STATES);
    }

    /** Checks a whole history: every key starts from the model's initial state. */
    public CheckReport check(List<Operation> history) {
        return check(history, true);
    }

    /**
     * Checks a history; with {@code fromInitialState} false every key starts from an unknown state, as a window cut
     * from the middle of a run must (see {@link Model#unknown}).
     */
    public CheckReport check(List<Operation> history, boolean fromInitialState) {
        // Hashed, not sorted: a long run's window has many keys, each with a short history. Findings are sorted after.
        Map<Long, List<Operation>> byKey = new HashMap<>();
        for (Operation op : history) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        List<Violation> violations = new ArrayList<>();
        List<Long> undecided = new ArrayList<>();
        long checked = 0;
        for (Map.Entry<Long, List<Operation>> e : byKey.entrySet()) {
            Checkable c = checkable(e.getValue());
            checked += c.ops.size();
            S init = fromInitialState ? model.initial() : model.unknown();
            Verdict v = searcher.search(c.tightened, init);
            if (v == Verdict.NOT_LINEARIZABLE && c.tightened != c.ops) {
                v = searcher.search(c.ops, init);
            }
            if (v == Verdict.UNDECIDED) {
                undecided.add(e.getKey());
            } else if (v == Verdict.NOT_LINEARIZABLE) {
                violations.add(narrow(e.getKey(), e.getValue(), c.ops, init, fromInitialState));
            }
        }
        violations.sort(Comparator.comparingLong(Violation::key));
        undecided.sort(null);
        return new CheckReport(history.size(), checked, byKey.size(), violations, undecided);
    }

    /** One key's operations to search: as they are, and tightened (see {@link #checkable(List, boolean)}). */
    private record Checkable(List<Operation> ops, List<Operation> tightened) {
    }

    /** Both of {@link #checkable(List, boolean)}'s lists, from one pass; one list when tightening changes nothing. */
    private static Checkable checkable(List<Operation> keyOps) {
        for (Operation op : keyOps) {
            if (op.kind().writes() && !op.completed() && op.input() != null && op.input().length > 0) {
                return new Checkable(checkable(keyOps, false), checkable(keyOps, true));
            }
        }
        List<Operation> ops = checkable(keyOps, false); // no write of unknown outcome: nothing to tighten
        return new Checkable(ops, ops);
    }

    /**
     * The operations the search must place: writes (answered or not) and answered reads, without failed writes
     * whose bytes no answered read contains. With {@code tighten}, a failed write whose bytes a read returned is
     * given that read's answer time as its own (the earliest such read answering after the write was invoked): if
     * the read saw the write, the write took effect before the read answered. That holds when every write's bytes
     * are its own, so a search of the tightened operations is only trusted when it finds a linearization (one that
     * satisfies more constraints is one of the original too); "none" is confirmed on the original operations.
     */
    static List<Operation> checkable(List<Operation> keyOps, boolean tighten) {
        List<Operation> reads = new ArrayList<>();
        List<Operation> unknown = new ArrayList<>();
        for (Operation op : keyOps) {
            if (op.kind() == Operation.Kind.GET && op.completed() && op.output() != null) {
                reads.add(op);
            } else if (op.kind().writes() && !op.completed() && op.input() != null && op.input().length > 0) {
                unknown.add(op);
            }
        }
        Map<Operation, Long> seen = Observations.firstSeen(unknown, reads);
        List<Operation> out = new ArrayList<>();
        for (Operation op : keyOps) {
            if (op.kind() == Operation.Kind.GET) {
                if (op.completed()) {
                    out.add(op);
                }
            } else if (op.kind().writes()) {
                if (op.completed() || op.input() == null || op.input().length == 0) {
                    out.add(op);
                } else {
                    Long at = seen.get(op);
                    if (at != null) {
                        out.add(tighten && at != Observations.SEEN_TOO_EARLY ? op.answeredAt(at) : op);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The writes of {@code writes} whose bytes some answered GET of {@code history} returned (the same key's), for a
     * caller that carries writes of unknown outcome from one window of a run to the next.
     */
    public static Set<Operation> seenByReads(List<Operation> writes, List<Operation> history) {
        Map<Long, List<Operation>> writesByKey = new HashMap<>();
        for (Operation w : writes) {
            if (w.input() != null && w.input().length > 0) {
                writesByKey.computeIfAbsent(w.key(), k -> new ArrayList<>()).add(w);
            }
        }
        if (writesByKey.isEmpty()) {
            return new HashSet<>();
        }
        Map<Long, List<Operation>> readsByKey = new HashMap<>();
        for (Operation op : history) {
            if (op.kind() == Operation.Kind.GET && op.completed() && op.output() != null
                && writesByKey.containsKey(op.key())) {
                readsByKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        Set<Operation> seen = new HashSet<>();
        writesByKey.forEach((key, ws) -> seen.addAll(
            Observations.firstSeen(ws, readsByKey.getOrDefault(key, List.of())).keySet()));
        return seen;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Narrowing a violation to a window.

    private boolean fails(List<Operation> ops, S init) {
        return searcher.search(ops, init) == Verdict.NOT_LINEARIZABLE;
    }

    private Violation narrow(long key, List<Operation> all, List<Operation> ops, S init, boolean fromInitialState) {
        long[] responses = ops.stream().filter(Operation::completed).mapToLong(Operation::response).distinct()
            .sorted().toArray();
        // Shortest failing prefix: the last cut fails (the whole history does), so the search below ends there.
        int lo = -1;
        int hi = responses.length - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (fails(prefix(ops, responses[mid]), init)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        long cut = responses[hi];
        List<Operation> prefix = prefix(ops, cut);
        Operation culprit = prefix.stream().filter(o -> o.completed() && o.response() == cut).findFirst()
            .orElseThrow();
        // Latest start that still fails from an unknown state.
        long[] starts = prefix.stream().filter(Operation::completed).mapToLong(Operation::response).distinct()
            .sorted().toArray();
        List<Operation> window = prefix;
        boolean windowFromInitial = fromInitialState;
        if (fails(window(prefix, starts[0]), model.unknown())) {
            int good = 0;
            int bad = starts.length;
            while (bad - good > 1) {
                int mid = (good + bad) >>> 1;
                if (fails(window(prefix, starts[mid]), model.unknown())) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
            List<Operation> w = window(prefix, starts[good]);
            if (w.size() < prefix.size()) {
                window = w;
                windowFromInitial = false;
            }
        }
        // Show the window with the original operations (a running write was made unknown only for the cut).
        Set<Operation> checkedOps = new HashSet<>(ops); // Operation's equality is identity
        Set<Operation> inWindow = new HashSet<>();
        List<Operation> shown = new ArrayList<>();
        for (Operation op : window) {
            Operation original = checkedOps.contains(op) ? op : originalOf(op, ops);
            inWindow.add(original);
            shown.add(original);
        }
        shown.sort(Comparator.comparingLong(Operation::invoke));
        long from = shown.stream().mapToLong(Operation::invoke).min().orElse(cut);
        List<Operation> context = new ArrayList<>();
        for (Operation op : all) {
            if (!inWindow.contains(op) && op.invoke() <= cut && (!op.completed() || op.response() >= from)) {
                context.add(op);
            }
        }
        context.sort(Comparator.comparingLong(Operation::invoke));
        return new Violation(key, culprit, shown, context, windowFromInitial);
    }

    /** The operation of {@code ops} a prefix's copy was made from (same client, kind and invocation). */
    private static Operation originalOf(Operation op, List<Operation> ops) {
        for (Operation o : ops) {
            if (o.client() == op.client() && o.invoke() == op.invoke() && o.kind() == op.kind()) {
                return o;
            }
        }
        return op;
    }

    /**
     * The history as it stood at time {@code cut}: operations invoked by then; a write still running becomes one of
     * unknown outcome, a read still running is dropped.
     */
    static List<Operation> prefix(List<Operation> ops, long cut) {
        List<Operation> out = new ArrayList<>();
        for (Operation op : ops) {
            if (op.invoke() > cut) {
                continue;
            }
            if (op.completed() && op.response() <= cut) {
                out.add(op);
            } else if (op.kind().writes()) {
                out.add(op.completed() ? op.withUnknownOutcome() : op);
            }
        }
        return out;
    }

    /**
     * The operations from a start: those answered at or after {@code start}, and every write of unknown outcome.
     * The start moves back until every operation dropped answered before every kept answered one was invoked, so
     * that any linearization places the dropped ones first and the kept ones start from some state: the unknown one.
     */
    static List<Operation> window(List<Operation> ops, long start) {
        long threshold = start;
        while (true) {
            long earliest = Long.MAX_VALUE;
            for (Operation op : ops) {
                if (op.completed() && op.response() >= threshold) {
                    earliest = Math.min(earliest, op.invoke());
                }
            }
            if (earliest >= threshold) {
                break;
            }
            threshold = earliest;
        }
        List<Operation> out = new ArrayList<>();
        for (Operation op : ops) {
            if (!op.completed() || op.response() >= threshold) {
                out.add(op);
            }
        }
        return out;
    }
}
