package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.pragh.keys.KeyLayout;
import io.pragh.store.ValueView;
import org.junit.jupiter.api.Test;

/** {@link Machine#view}: the value read where the GET left it, one flyweight per thread, and what {@code get} copies. */
class MachineViewTest {
    @Test
    void aViewShowsTheValueInTheSessionsBufferAndIsReusedByTheNextGet() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(4 << 20).remoteLatencyNs(0).build()) {
            long local = keyHomedAt(c, 0, 0);
            long remote = keyHomedAt(c, 1, 0);
            long absent = keyHomedAt(c, 1, 1_000);  // beyond the first vertices, never written
            byte[] a = {1, 2, 3, 4, 5, 6, 7, 8, 9};
            byte[] b = {42, 43};
            c.machine(0).put(local, a);
            c.machine(0).put(remote, b);
            Machine reader = c.machine(0);

            ValueView first = reader.view(local);
            assertArrayEquals(a, first.toBytes(), "a local value seen in place");
            assertEquals(a.length, first.length());
            ValueView second = reader.view(remote);
            assertSame(first, second, "one flyweight per thread: a view is valid until the thread's next GET");
            assertArrayEquals(b, second.toBytes(), "a remote value seen in place");
            assertArrayEquals(b, reader.get(remote), "get copies what view shows");
            assertNull(reader.view(absent), "a key without a value has no view");
        }
    }

    /** The first OUT key of a vertex from {@code from} on whose home is {@code home}. */
    private static long keyHomedAt(EmbeddedCluster c, int home, long from) {
        for (long v = from; ; v++) {
            long k = KeyLayout.key(v, 0, KeyLayout.OUT);
            if (c.home(k) == home) {
                return k;
            }
        }
    }
}
