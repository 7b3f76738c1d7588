package io.pragh.gremlin.events;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventStrandsTest {
    private static RawEvent update(final long vid, final long version) {
        return new RawEvent(EventKind.PROPERTY_UPDATE, vid * 16, version, vid, true, 1L, -1, false, 0, new byte[0], 0, 0, 0);
    }

    /** The lane {@link EventLanes} puts {@code vid} on, out of {@code lanes}. */
    private static int laneOf(final long vid, final int lanes) {
        return (int) Long.remainderUnsigned(vid * 0x9E3779B97F4A7C15L >>> 17, lanes);
    }

    @Test
    void anEventOfAnotherVertexIsNotHeldBehindABlockedHandlerEvenWhenALaneWouldShareThem() throws Exception {
        final long a = 1;
        long b = 2;
        while (laneOf(b, 2) != laneOf(a, 2) || EventStrands.strandOf(b) == EventStrands.strandOf(a)) {
            b++; // a vertex that 2 lanes would queue behind a's handler, on a strand of its own
        }
        final long other = b;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch otherHandled = new CountDownLatch(1);
        try (EventStrands pool = new EventStrands(2, 1024, e -> {
            if (e.vid == a) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            } else {
                otherHandled.countDown();
            }
        })) {
            pool.offer(update(a, 1));
            assertTrue(entered.await(60, TimeUnit.SECONDS), "a worker took a's event");
            pool.offer(update(other, 1));
            assertTrue(otherHandled.await(60, TimeUnit.SECONDS),
                "vertex " + other + "'s event was handled while a's handler still held its worker");
            release.countDown();
            assertTrue(pool.flush(60_000));
        }
    }

    @Test
    void eachVertexsEventsAreHandledOnceAndInOrderAcrossWorkers() throws Exception {
        final Map<Long, List<Long>> handled = new HashMap<>();
        try (EventStrands pool = new EventStrands(4, 1 << 20, e -> {
            synchronized (handled) {
                handled.computeIfAbsent(e.vid, k -> new ArrayList<>()).add(e.version);
            }
        })) {
            for (long v = 1; v <= 200; v++) {
                for (long vid = 0; vid < 300; vid++) {
                    pool.offer(update(vid, v));
                    if (v % 10 == 0) {
                        pool.offer(update(vid, v)); // a durable home told of this version again
                    }
                    if (v % 25 == 0 && v > 1) {
                        pool.offer(update(vid, v - 1)); // an older version told again after later ones
                    }
                }
            }
            assertTrue(pool.flush(60_000));
            assertEquals(0, pool.dropped());
            final List<Long> expected = new ArrayList<>();
            for (long v = 1; v <= 200; v++) {
                expected.add(v);
            }
            synchronized (handled) {
                assertEquals(300, handled.size());
                handled.forEach((vid, versions) -> assertEquals(expected, versions, "vertex " + vid));
            }
        }
    }

    @Test
    void aFullPoolDropsAndCountsInsteadOfBlockingTheCaller() throws Exception {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> handled = Collections.synchronizedList(new ArrayList<>());
        try (EventStrands pool = new EventStrands(1, 1, e -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            handled.add(e.version);
        })) {
            pool.offer(update(1, 1));
            assertTrue(entered.await(60, TimeUnit.SECONDS), "a worker took the first event");
            pool.offer(update(1, 2)); // queued: room for one
            pool.offer(update(2, 1)); // full (over all strands): dropped, and the offer returned
            assertEquals(1, pool.dropped());
            release.countDown();
            assertTrue(pool.flush(60_000));
            assertEquals(List.of(1L, 2L), handled);
        }
    }

    @Test
    void anUnknownOrderingIsRefusedByName() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> EventPool.of("vertex", 2, 16, x -> { }));
        assertTrue(e.getMessage().contains("'vertex'"), e.getMessage());
    }
}
