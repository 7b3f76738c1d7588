package io.pragh.consistency;

import io.pragh.consistency.History.Kind;
import io.pragh.consistency.History.Op;
import io.pragh.keys.KeyLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Checks a {@link History} of GET, PUT and APPEND operations against real time. Every rule below is <em>sound</em>
 * for a linearizable store: a violation is a real consistency bug (no false alarms), though not every
 * non-linearizable history is caught. Times are the {@link System#nanoTime} stamps taken just before invocation and
 * just after the response, so real-time order "a before b" means {@code a.response < b.invoke}.
 *
 * <p>Keys of kind {@link KeyLayout#OUT} or {@link KeyLayout#IN} are adjacency lists (APPENDs of 8-byte ids, GETs
 * return the packed ids); every other key is a register (PUTs of {@link WrittenValue}s, GETs). The workloads have
 * no DELETE. A write that failed or never answered ({@link History#NO_RESPONSE}) may or may not have taken effect.
 *
 * <p>Register rules, for a GET {@code g} of key {@code k} that returned the value of write {@code w}:
 * <ol>
 *   <li><b>integrity</b>: the bytes decode as a whole {@link WrittenValue};</li>
 *   <li><b>no foreign key</b>: the value names {@code k} and {@code w} is a PUT to {@code k};</li>
 *   <li><b>no read from the future</b>: {@code w.invoke < g.response};</li>
 *   <li><b>not known overwritten</b>: there is no acknowledged PUT {@code w2} to {@code k} with
 *       {@code w.response < w2.invoke} and {@code w2.response < g.invoke} (w2 followed w entirely, and finished before
 *       g began, so w was overwritten before g began); a GET that returned nothing must not follow an acknowledged
 *       PUT in real time;</li>
 *   <li><b>no lost write</b>: a GET that began after every PUT to {@code k} had answered returns a maximal write,
 *       one that no acknowledged PUT followed in real time (rule 4 applied to the final state, reported as a
 *       loss).</li>
 * </ol>
 * These are the contract of a <em>regular</em> register, which is what the issue asks of the store. Reported
 * apart, as {@link Report#inversions}, is what an <em>atomic</em> (linearizable) register would also forbid: a
 * <b>new-old inversion</b>, a GET {@code g} that returned {@code w} after an earlier GET {@code g1}
 * ({@code g1.response < g.invoke}) had returned a write {@code w1} that began after {@code w} completed. Rule 4
 * already catches that when {@code w1} was acknowledged before {@code g} began, so an inversion always involves a
 * PUT still in flight: the update protocol (paper Fig. 9) publishes the new record by CAS before it invalidates the
 * old one, and a reader holding the old address in its location cache may read the old value in between.
 *
 * <p> * Adjacency rules, for a GET {@code g} of key {@code k} that returned the ids {@code L}:
 * <ol>
 *   <li><b>integrity</b>: {@code L} is whole 8-byte ids;</li>
 *   <li><b>no foreign or invented id</b>: every id in {@code L} was APPENDed to {@code k}, by an APPEND invoked
 *       before {@code g} responded;</li>
 *   <li><b>no duplicate</b>: no id occurs twice (each APPEND was applied once);</li>
 *   <li><b>no missing edge</b>: every APPEND to {@code k} acknowledged before {@code g} began is in {@code L} (a
 *       stale read, or, for a GET that began after every APPEND had answered, a lost edge).</li>
 * </ol>
 *
 * <pre>{@code
 * HistoryChecker.Report report = HistoryChecker.check(history.ops());
 * assertTrue(report.violations().isEmpty(), String.join("\n", report.violations()));
 * }</pre>
 */
final class HistoryChecker {
    private HistoryChecker() {
    }

    static boolean isAdjacency(long key) {
        int kind = KeyLayout.kind(key);
        return kind == KeyLayout.OUT || kind == KeyLayout.IN;
    }

    /**
     * What a history broke.
     *
     * @param violations breaches of the rules above, one line each, in no particular order
     * @param inversions new-old inversions (allowed for a regular register, see above), one line each
     */
    record Report(List<String> violations, List<String> inversions) {
    }

    static Report check(List<Op> ops) {
        Map<Long, List<Op>> byKey = new HashMap<>();
        Map<Long, Long> keyOfPut = new HashMap<>();
        Map<Long, Long> keyOfAppend = new HashMap<>();
        List<String> violations = new ArrayList<>();
        List<String> inversions = new ArrayList<>();
        for (Op op : ops) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            if (op.kind() == Kind.PUT && keyOfPut.put(op.writeId(), op.key()) != null) {
                violations.add("history error: write id " + WrittenValue.describe(op.writeId()) + " used twice");
            }
            if (op.kind() == Kind.APPEND && keyOfAppend.put(op.writeId(), op.key()) != null) {
                violations.add("history error: edge id " + Long.toHexString(op.writeId()) + " appended twice");
            }
        }
        for (Map.Entry<Long, List<Op>> e : byKey.entrySet()) {
            long T0 = System.nanoTime();
            if (isAdjacency(e.getKey())) {
                checkAdjacency(e.getKey(), e.getValue(), keyOfAppend, violations);
            } else {
                checkRegister(e.getKey(), e.getValue(), keyOfPut, violations, inversions);
            }

        }
        return new Report(violations, inversions);
    }

    /** The writes (PUTs of a register, APPENDs of an adjacency) to one key. */
    private static final class Writes {
        final Long2ObjectHashMap<Op> byId = new Long2ObjectHashMap<>();
        final Acknowledged acked;
        /** After this time every write had answered (or failed): a GET invoked later sees the final state. */
        final long quiescentFrom;

        Writes(long key, List<Op> ops, Kind kind, List<String> out) {
            List<Op> writes = new ArrayList<>();
            long quiet = Long.MIN_VALUE;
            for (Op op : ops) {
                if (op.kind() == kind) {
                    byId.put(op.writeId(), op);
                    writes.add(op);
                    quiet = Math.max(quiet, op.acknowledged() ? op.response() : op.invoke());
                } else if (op.kind() == Kind.PUT || op.kind() == Kind.APPEND) {
                    out.add("history error: " + op.kind() + " to " + (kind == Kind.PUT ? "register" : "adjacency")
                        + " key " + key + ": " + op);
                }
            }
            this.acked = new Acknowledged(writes);
            this.quiescentFrom = quiet;
        }
    }

    /** Acknowledged writes of one key sorted by response, with the running maximum of their invocation times. */
    private static final class Acknowledged {
        final Op[] byResponse;
        final long[] responses;
        final Op[] latestInvokedSoFar;

        Acknowledged(List<Op> writes) {
            byResponse = writes.stream().filter(Op::acknowledged).sorted(Comparator.comparingLong(Op::response))
                .toArray(Op[]::new);
            responses = new long[byResponse.length];
            latestInvokedSoFar = new Op[byResponse.length];
            for (int i = 0; i < byResponse.length; i++) {
                responses[i] = byResponse[i].response();
                Op prev = i == 0 ? null : latestInvokedSoFar[i - 1];
                latestInvokedSoFar[i] = prev != null && prev.invoke() >= byResponse[i].invoke() ? prev : byResponse[i];
            }
        }

        /** How many acknowledged writes responded strictly before {@code time}. */
        int countBefore(long time) {
            int i = Arrays.binarySearch(responses, time);
            if (i < 0) {
                return -i - 1;
            }
            while (i > 0 && responses[i - 1] == time) {
                i--;
            }
            return i;
        }

        /** The write, among those acknowledged before {@code time}, invoked last; null when there is none. */
        Op latestInvokedBefore(long time) {
            int n = countBefore(time);
            return n == 0 ? null : latestInvokedSoFar[n - 1];
        }
    }

    private static void checkRegister(long key, List<Op> ops, Map<Long, Long> keyOfPut, List<String> out,
                                      List<String> inversions) {
        Writes writes = new Writes(key, ops, Kind.PUT, out);
        Long2ObjectHashMap<Op> puts = writes.byId;
        Acknowledged acked = writes.acked;
        long quiescentFrom = writes.quiescentFrom;
        // Reads whose value passed rules 1-4, and reads of nothing, for the inversion sweep.
        List<Op> reads = new ArrayList<>();
        Map<Op, Op> readWrite = new IdentityHashMap<>();
        for (Op g : ops) {
            if (g.kind() != Kind.GET || !g.acknowledged()) {
                continue;
            }
            if (g.read() == null) {
                Op before = acked.latestInvokedBefore(g.invoke());
                if (before != null) {
                    out.add("stale read (nothing): " + g + " of key " + key + " returned no value, but " + before
                        + " was acknowledged before it began");
                }
                reads.add(g);
                continue;
            }
            WrittenValue.Decoded d = WrittenValue.decode(g.read());
            if (d.problem() != null) {
                out.add("corrupt read: " + g + " of key " + key + " returned " + d.problem());
                continue;
            }
            Op w = puts.get(d.id());
            if (d.key() != key || w == null) {
                Long owner = keyOfPut.get(d.id());
                out.add("foreign-key read: " + g + " of key " + key + " returned a value of key " + d.key() + " ("
                    + WrittenValue.describe(d.id()) + (owner == null ? ", which nobody wrote)"
                    : ", PUT to key " + owner + ")"));
                continue;
            }
            if (w.invoke() >= g.response()) {
                out.add("read from the future: " + g + " of key " + key + " returned " + w + ", invoked after the GET"
                    + " responded");
                continue;
            }
            Op w2 = acked.latestInvokedBefore(g.invoke());
            if (w2 != null && w.response() < w2.invoke()) {
                boolean quiescent = g.invoke() > quiescentFrom;
                out.add((quiescent ? "lost write: final " : "stale read: ") + g + " of key " + key + " returned " + w
                    + ", but " + w2 + " began after it completed and was acknowledged before the GET began");
                continue;
            }
            reads.add(g);
            readWrite.put(g, w);
        }
        findInversions(key, reads, readWrite, inversions);
    }

    /** Sweeps reads by response, remembering the latest-invoked write any finished read has observed. */
    private static void findInversions(long key, List<Op> reads, Map<Op, Op> readWrite, List<String> out) {
        Op[] byResponse = reads.stream().sorted(Comparator.comparingLong(Op::response)).toArray(Op[]::new);
        Op[] byInvoke = reads.stream().sorted(Comparator.comparingLong(Op::invoke)).toArray(Op[]::new);
        int next = 0;
        Op observedRead = null;
        Op observed = null;
        for (Op g : byInvoke) {
            while (next < byResponse.length && byResponse[next].response() < g.invoke()) {
                Op w1 = readWrite.get(byResponse[next]);
                if (w1 != null && (observed == null || w1.invoke() > observed.invoke())) {
                    observed = w1;
                    observedRead = byResponse[next];
                }
                next++;
            }
            if (observed == null) {
                continue;
            }
            Op w = readWrite.get(g);
            if (w == null) {
                out.add("new-old inversion: " + g + " of key " + key + " returned no value after " + observedRead
                    + " had returned " + observed);
            } else if (w.response() < observed.invoke()) {
                out.add("new-old inversion: " + g + " of key " + key + " returned " + w + ", but the earlier "
                    + observedRead + " had already returned " + observed + ", which began after " + w + " completed");
            }
        }
    }

    private static void checkAdjacency(long key, List<Op> ops, Map<Long, Long> keyOfAppend, List<String> out) {
        Writes writes = new Writes(key, ops, Kind.APPEND, out);
        Long2ObjectHashMap<Op> appends = writes.byId;
        Acknowledged acked = writes.acked;
        long quiescentFrom = writes.quiescentFrom;
        Long2LongHashMap ackOrder = new Long2LongHashMap(-1);
        for (int i = 0; i < acked.byResponse.length; i++) {
            ackOrder.put(acked.byResponse[i].writeId(), i);
        }
        LongHashSet seen = new LongHashSet();
        for (Op g : ops) {
            if (g.kind() != Kind.GET || !g.acknowledged()) {
                continue;
            }
            byte[] read = g.read() == null ? new byte[0] : g.read();
            if (read.length % 8 != 0) {
                out.add("corrupt read: " + g + " of adjacency key " + key + " returned " + read.length
                    + " bytes, not whole 8-byte ids");
                continue;
            }
            UnsafeBuffer ids = new UnsafeBuffer(read);
            seen.clear();
            int mustHave = acked.countBefore(g.invoke());
            int had = 0;
            for (int at = 0; at < read.length; at += 8) {
                long id = ids.getLong(at);
                if (!seen.add(id)) {
                    out.add("duplicated edge: " + g + " of adjacency key " + key + " holds id " + Long.toHexString(id)
                        + " twice");
                    continue;
                }
                Op a = appends.get(id);
                if (a == null) {
                    Long owner = keyOfAppend.get(id);
                    out.add("foreign-key read: " + g + " of adjacency key " + key + " holds id " + Long.toHexString(id)
                        + (owner == null ? ", which nobody appended" : ", appended to key " + owner));
                    continue;
                }
                if (a.invoke() >= g.response()) {
                    out.add("read from the future: " + g + " of adjacency key " + key + " holds " + a);
                }
                long order = ackOrder.get(id);
                if (order >= 0 && order < mustHave) {
                    had++;
                }
            }
            if (had < mustHave) {
                boolean quiescent = g.invoke() > quiescentFrom;
                List<String> missing = new ArrayList<>();
                for (int i = 0; i < mustHave && missing.size() < 3; i++) {
                    if (!seen.contains(acked.byResponse[i].writeId())) {
                        missing.add(acked.byResponse[i].toString());
                    }
                }
                out.add((quiescent ? "lost edge: final " : "stale read (missing edge): ") + g + " of adjacency key "
                    + key + " lacks " + (mustHave - had) + " of the " + mustHave + " APPENDs acknowledged before it"
                    + " began, e.g. " + missing);
            }
        }
    }
}
