package io.pragh.bench.extension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class CappedAppendTest {
    private final CappedAppend insert = new CappedAppend();

    private long[] apply(long[] list, long neighbour, long cap) {
        UnsafeBuffer cur = new UnsafeBuffer(new byte[Math.max(8, list.length * 8)]);
        for (int i = 0; i < list.length; i++) {
            cur.putLong(8 * i, list[i]);
        }
        UnsafeBuffer arg = new UnsafeBuffer(CappedAppend.argument(neighbour, cap));
        int curLen = list.length == 0 ? -1 : list.length * 8;
        int len = insert.newLength(cur, 0, curLen, arg, 0, CappedAppend.ARGUMENT_BYTES);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[len]);
        insert.write(cur, 0, curLen, arg, 0, CappedAppend.ARGUMENT_BYTES, dst, 0);
        long[] out = new long[len / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = dst.getLong(8 * i);
        }
        return out;
    }

    @Test
    void appendsBelowTheCap() {
        assertArrayEquals(new long[] {1, 2, 3}, apply(new long[] {1, 2}, 3, 5));
    }

    @Test
    void createsAListForAnAbsentKey() {
        assertArrayEquals(new long[] {7}, apply(new long[0], 7, 5));
    }

    @Test
    void atTheCapTheNewestInsertReplacesThePreviousOneAndTheListStopsGrowing() {
        long[] list = {1, 2, 3};
        list = apply(list, 9, 3);
        assertArrayEquals(new long[] {1, 2, 9}, list);
        list = apply(list, 10, 3);
        assertArrayEquals(new long[] {1, 2, 10}, list);
        assertEquals(3, list.length);
    }

    @Test
    void refusesAnArgumentOfTheWrongSize() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> insert.newLength(b, 0, 8, b, 0, 8));
        assertEquals("CAPPED_APPEND takes 16 bytes, got 8", e.getMessage());
    }
}
