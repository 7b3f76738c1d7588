package io.pragh.server.rpc;

import io.pragh.keys.KeyLayout;
import io.pragh.keys.KeyRegion;
import java.util.Arrays;

/**
 * One page of a machine's home keys of one kind, resumable by a cursor: the key region's slot offsets grow in the
 * order {@link KeyRegion#forEach} walks them, so a page ends at the slot after its last key and the next page starts
 * there. Keys inserted or deleted while a scan runs may or may not be seen (as with {@code forEach}); a key present
 * throughout is seen exactly once.
 *
 * <pre>{@code
 * long cursor = ClientProtocol.SCAN_START;
 * do {
 *     HomeKeyScan.Page p = HomeKeyScan.page(machine.store().keys(), KeyLayout.VERTEX, cursor, 1024);
 *     for (long key : p.keys()) { ... }
 *     cursor = p.next();
 * } while (cursor != ClientProtocol.SCAN_END);
 * }</pre>
 */
public final class HomeKeyScan {
    /** Thrown through {@code forEach} to end a walk once a page is full; no stack trace, one instance. */
    private static final RuntimeException PAGE_FULL = new RuntimeException("page full", null, false, false) {
    };

    /** Keys of one page and where the next page starts ({@link ClientProtocol#SCAN_END} after the last). */
    public record Page(long next, long[] keys) {
    }

    private HomeKeyScan() {
    }

    /** Up to {@code max} keys of {@code kind} at slots from {@code cursor} on. */
    public static Page page(KeyRegion keys, int kind, long cursor, int max) {
        long[] found = new long[max];
        int[] n = {0};
        long[] next = {ClientProtocol.SCAN_END};
        try {
            keys.forEach((key, address, slot) -> {
                if (slot < cursor || KeyLayout.kind(key) != kind) {
                    return;
                }
                if (n[0] == max) {
                    next[0] = slot; // the first key that did not fit starts the next page
                    throw PAGE_FULL;
                }
                found[n[0]++] = key;
            });
        } catch (RuntimeException e) {
            if (e != PAGE_FULL) {
                throw e;
            }
        }
        return new Page(next[0], Arrays.copyOf(found, n[0]));
    }
}
