package io.pragh.linearizability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The search of {@link LinearizabilityChecker} for one key's history: Wing and Gong's, in Lowe's just-in-time form
 * with memoization, as in Porcupine. Walks the invocations and responses in time order, tentatively linearizes an
 * operation whose invocation has been reached when the {@link Model} accepts its answer in the current state,
 * backtracks on reaching a response whose operation is not yet linearized, and never explores the same (operations
 * linearized, state) pair twice; gives up undecided past {@code maxStates} memoized pairs.
 *
 * <pre>{@code
 * LinearizationSearch<ValueModel.State> search = new LinearizationSearch<>(ValueModel.INSTANCE, 1_000_000);
 * boolean ok = search.search(keyOps, ValueModel.INSTANCE.initial()) == LinearizationSearch.Verdict.LINEARIZABLE;
 * }</pre>
 *
 * @param <S> the model's state type
 */
final class LinearizationSearch<S> {
    private static final long[] NO_WORDS = new long[0];

    /** The result of one key's search. */
    enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, UNDECIDED }

    private final Model<S> model;
    private final int maxStates;

    LinearizationSearch(Model<S> model, int maxStates) {
        this.model = model;
        this.maxStates = maxStates;
    }

    /** An invocation or a response in the doubly linked list the search lifts operations out of. */
    private static final class Entry {
        final int op;
        final boolean response;
        Entry match;
        Entry prev;
        Entry next;

        Entry(int op, boolean response) {
            this.op = op;
            this.response = response;
        }
    }

    /**
     * The key of a memoized configuration: which answered operations are linearized, and the state. The set is kept
     * as the slice of its bit words from the first one not full to the last one not empty: operations are numbered
     * by invocation and the search linearizes them roughly in that order, so the words before are all ones, those
     * after all zeros, and an entry costs a few words however long the history.
     */
    private static final class Memo<S> {
        final int from;
        final long[] words;
        final long bitsHash;
        final S state;

        Memo(int from, long[] words, long bitsHash, S state) {
            this.from = from;
            this.words = words;
            this.bitsHash = bitsHash;
            this.state = state;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(bitsHash) * 31 + state.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Memo<?> m && m.bitsHash == bitsHash && m.from == from && m.state.equals(state)
                && Arrays.equals(m.words, words);
        }
    }

    /**
     * Whether {@code ops} (one key's, all checkable) have a linearization from {@code init}.
     *
     * <p>Memoization with dominance for operations of unknown outcome: two configurations with the same answered
     * operations linearized and the same state differ only in which unknown ones took effect, and the one where fewer
     * did can do all the other can (an unknown operation may be left out for good). So a configuration is skipped
     * when one already explored has a subset of its unknown operations; without this, every unknown write, once
     * invoked, would double the configurations to explore. And unknown writes of the same effect (DELETEs) are
     * linearized in invocation order only: any one of them can stand for a later one.
     */
    Verdict search(List<Operation> history, S init) {
        int n = history.size();
        if (n == 0) {
            return Verdict.LINEARIZABLE;
        }
        // Answered operations first, by invocation, then those of unknown outcome: two bit sets.
        List<Operation> ops = new ArrayList<>(history);
        ops.sort(Comparator.comparing((Operation o) -> !o.completed()).thenComparingLong(Operation::invoke));
        int answered = 0;
        while (answered < n && ops.get(answered).completed()) {
            answered++;
        }
        Entry head = buildList(ops);
        long[] zobrist = new long[answered];
        SplittableRandom random = new SplittableRandom(0x9E3779B97F4A7C15L);
        for (int i = 0; i < answered; i++) {
            zobrist[i] = random.nextLong();
        }
        // Unknown writes with the same effect (every DELETE; writes of equal bytes) are interchangeable once invoked:
        // one may always stand for a later one. So only the earliest not yet linearized of a group is tried.
        int[] previousAlike = new int[n - answered];
        Map<String, Integer> lastOfGroup = new HashMap<>();
        for (int u = 0; u < n - answered; u++) {
            Operation op = ops.get(answered + u);
            String group = op.kind() + ":" + (op.input() == null ? "" : java.util.HexFormat.of().formatHex(op.input()));
            Integer before = lastOfGroup.put(group, u);
            previousAlike[u] = before == null ? -1 : before;
        }
        int responsesLeft = answered;
        long[] bits = new long[(answered + 63) >>> 6];
        long[] unknown = new long[(n - answered + 63) >>> 6];
        long bitsHash = 0;
        // Words of bits below low are all ones, words above high all zeros.
        int low = 0;
        int high = -1;
        Map<Memo<S>, List<long[]>> seen = new HashMap<>();
        int states = 0;
        Entry[] stackEntry = new Entry[n];
        List<S> stackState = new ArrayList<>(n);
        int depth = 0;
        S state = init;
        Entry e = head.next;
        while (responsesLeft > 0) {
            if (!e.response) {
                Operation op = ops.get(e.op);
                int alike = e.op < answered ? -1 : previousAlike[e.op - answered];
                boolean turn = alike < 0 || (unknown[alike >>> 6] & (1L << alike)) != 0;
                S next = turn ? model.step(state, op) : null;
                if (next != null) {
                    boolean isAnswered = e.op < answered;
                    int lowAfter = low;
                    int highAfter = high;
                    long hashAfter = bitsHash;
                    if (isAnswered) {
                        bits[e.op >>> 6] |= 1L << e.op;
                        hashAfter ^= zobrist[e.op];
                        while (lowAfter < bits.length && bits[lowAfter] == -1L) {
                            lowAfter++;
                        }
                        highAfter = Math.max(high, e.op >>> 6);
                    } else {
                        int u = e.op - answered;
                        unknown[u >>> 6] |= 1L << u;
                    }
                    long[] slice = lowAfter > highAfter ? NO_WORDS : Arrays.copyOfRange(bits, lowAfter, highAfter + 1);
                    List<long[]> tried = seen.computeIfAbsent(new Memo<>(lowAfter, slice, hashAfter, next),
                        k -> new ArrayList<>(1));
                    if (!dominated(tried, unknown)) {
                        tried.removeIf(t -> subset(unknown, t));
                        tried.add(unknown.clone());
                        if (++states > maxStates) {
                            return Verdict.UNDECIDED;
                        }
                        low = lowAfter;
                        high = highAfter;
                        bitsHash = hashAfter;
                        stackEntry[depth++] = e;
                        stackState.add(state);
                        state = next;
                        lift(e);
                        if (isAnswered) {
                            responsesLeft--;
                        }
                        e = head.next;
                        continue;
                    }
                    clear(bits, unknown, e.op, answered);
                }
                e = e.next;
            } else {
                if (depth == 0) {
                    return Verdict.NOT_LINEARIZABLE;
                }
                Entry top = stackEntry[--depth];
                state = stackState.remove(depth);
                clear(bits, unknown, top.op, answered);
                if (top.op < answered) {
                    bitsHash ^= zobrist[top.op];
                    low = Math.min(low, top.op >>> 6);
                    while (high >= 0 && bits[high] == 0) {
                        high--;
                    }
                    responsesLeft++;
                }
                unlift(top);
                e = top.next;
            }
        }
        return Verdict.LINEARIZABLE;
    }

    private static void clear(long[] bits, long[] unknown, int op, int answered) {
        if (op < answered) {
            bits[op >>> 6] &= ~(1L << op);
        } else {
            int u = op - answered;
            unknown[u >>> 6] &= ~(1L << u);
        }
    }

    /** Whether some set of {@code tried} is a subset of {@code set}. */
    private static boolean dominated(List<long[]> tried, long[] set) {
        for (long[] t : tried) {
            if (subset(t, set)) {
                return true;
            }
        }
        return false;
    }

    private static boolean subset(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            if ((a[i] & ~b[i]) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The list: a head sentinel, then invocations and responses by time. At equal times invocations come first, so
     * operations that touch at one instant count as concurrent: no false alarm from a coarse clock.
     */
    private static Entry buildList(List<Operation> ops) {
        List<Entry> entries = new ArrayList<>(2 * ops.size());
        for (int i = 0; i < ops.size(); i++) {
            Operation op = ops.get(i);
            Entry call = new Entry(i, false);
            entries.add(call);
            if (op.completed()) {
                Entry ret = new Entry(i, true);
                call.match = ret;
                ret.match = call;
                entries.add(ret);
            }
        }
        entries.sort(Comparator.<Entry>comparingLong(x -> x.response ? ops.get(x.op).response()
            : ops.get(x.op).invoke()).thenComparing(x -> x.response));
        Entry head = new Entry(-1, false);
        Entry prev = head;
        for (Entry x : entries) {
            prev.next = x;
            x.prev = prev;
            prev = x;
        }
        return head;
    }

    private static void lift(Entry call) {
        call.prev.next = call.next;
        if (call.next != null) {
            call.next.prev = call.prev;
        }
        Entry ret = call.match;
        if (ret != null) {
            ret.prev.next = ret.next;
            if (ret.next != null) {
                ret.next.prev = ret.prev;
            }
        }
    }

    private static void unlift(Entry call) {
        Entry ret = call.match;
        if (ret != null) {
            ret.prev.next = ret;
            if (ret.next != null) {
                ret.next.prev = ret;
            }
        }
        call.prev.next = call;
        if (call.next != null) {
            call.next.prev = call;
        }
    }
}
