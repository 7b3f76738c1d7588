package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** A restore installs the durable value only where the key has none, so it never undoes a newer update. */
class RestoreMutatorTest {
    private final RestoreMutator restore = new RestoreMutator();
    private final UnsafeBuffer durable = new UnsafeBuffer("durable".getBytes());

    private byte[] apply(byte[] current) {
        UnsafeBuffer cur = new UnsafeBuffer(current == null ? new byte[0] : current);
        int curLen = current == null ? -1 : current.length;
        int len = restore.newLength(cur, 0, curLen, durable, 0, durable.capacity());
        byte[] out = new byte[len];
        restore.write(cur, 0, curLen, durable, 0, durable.capacity(), new UnsafeBuffer(out), 0);
        return out;
    }

    @Test
    void anAbsentValueGetsTheDurableOne() {
        assertArrayEquals("durable".getBytes(), apply(null));
    }

    @Test
    void aPresentValueStays() {
        assertArrayEquals("newer!".getBytes(), apply("newer!".getBytes()));
        assertEquals(0, apply(new byte[0]).length, "an empty value is a value too");
    }
}
