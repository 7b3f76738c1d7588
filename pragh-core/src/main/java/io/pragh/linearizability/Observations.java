package io.pragh.linearizability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which failed writes some read saw: the reads whose returned bytes contain a write's bytes. Writes are indexed by
 * their first eight bytes, so each read costs one hash lookup per byte it returned rather than a scan per write.
 */
final class Observations {
    /** A write a read saw only before the write was invoked (a coincidence or a violation: not a bound). */
    static final long SEEN_TOO_EARLY = Long.MIN_VALUE;

    private Observations() {
    }

    /**
     * For each write of {@code writes} that some read of {@code reads} contains: the earliest answer time of such a
     * read answering after the write's invocation, or {@link #SEEN_TOO_EARLY}. Writes no read contains are absent.
     */
    static Map<Operation, Long> firstSeen(List<Operation> writes, List<Operation> reads) {
        Map<Operation, Long> seen = new IdentityHashMap<>();
        if (writes.isEmpty()) {
            return seen;
        }
        Map<Long, List<Operation>> byPrefix = new HashMap<>();
        List<Operation> short_ = new ArrayList<>();
        for (Operation w : writes) {
            byte[] in = w.input();
            if (in.length >= 8) {
                byPrefix.computeIfAbsent(word(in, 0), k -> new ArrayList<>(1)).add(w);
            } else {
                short_.add(w);
            }
        }
        List<Operation> byAnswer = new ArrayList<>(reads);
        byAnswer.sort(Comparator.comparingLong(Operation::response));
        for (Operation r : byAnswer) {
            byte[] out = r.output();
            for (int at = 0; at + 8 <= out.length; at++) {
                List<Operation> candidates = byPrefix.get(word(out, at));
                if (candidates != null) {
                    for (Operation w : candidates) {
                        if (contains(out, at, w.input())) {
                            note(seen, w, r);
                        }
                    }
                }
            }
            for (Operation w : short_) {
                for (int at = 0; at + w.input().length <= out.length; at++) {
                    if (contains(out, at, w.input())) {
                        note(seen, w, r);
                        break;
                    }
                }
            }
        }
        return seen;
    }

    private static void note(Map<Operation, Long> seen, Operation w, Operation r) {
        Long before = seen.get(w);
        if (before != null && before != SEEN_TOO_EARLY) {
            return; // reads come by answer time: the first that counts is kept
        }
        seen.put(w, r.response() > w.invoke() ? r.response() : SEEN_TOO_EARLY);
    }

    private static boolean contains(byte[] hay, int at, byte[] needle) {
        if (at + needle.length > hay.length) {
            return false;
        }
        for (int i = 0; i < needle.length; i++) {
            if (hay[at + i] != needle[i]) {
                return false;
            }
        }
        return true;
    }

    private static long word(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
