package io.pragh.gremlin.events;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventLanesTest {
    private static RawEvent update(final long vid, final long version) {
        return new RawEvent(EventKind.PROPERTY_UPDATE, vid * 16, version, vid, true, 1L, -1, false, 0, new byte[0], 0, 0, 0);
    }

    @Test
    void aFullLaneDropsAndCountsInsteadOfBlockingTheCaller() throws Exception {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> handled = Collections.synchronizedList(new ArrayList<>());
        try (EventLanes lanes = new EventLanes(1, 1, e -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            handled.add(e.version);
        })) {
            lanes.offer(update(1, 1));
            assertTrue(entered.await(60, TimeUnit.SECONDS), "the lane took the first event");
            lanes.offer(update(1, 2)); // queued: the queue holds one
            lanes.offer(update(1, 3)); // full: dropped, and the offer returned
            assertEquals(1, lanes.dropped());
            release.countDown();
            assertTrue(lanes.flush(60_000));
            assertEquals(List.of(1L, 2L), handled);
        }
    }

    @Test
    void aVersionToldTwiceIsHandledOnceAndOneVertexsEventsKeepTheirOrder() throws Exception {
        final List<Long> handled = Collections.synchronizedList(new ArrayList<>());
        try (EventLanes lanes = new EventLanes(3, 1024, e -> handled.add(e.version))) {
            for (long v = 1; v <= 100; v++) {
                lanes.offer(update(7, v));
                if (v % 10 == 0) {
                    lanes.offer(update(7, v)); // a durable home told of this version again
                }
            }
            assertTrue(lanes.flush(60_000));
            final List<Long> expected = new ArrayList<>();
            for (long v = 1; v <= 100; v++) {
                expected.add(v);
            }
            assertEquals(expected, handled);
        }
    }
}
