package io.pragh.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class StripedCountTest {
    /**
     * Exact under contention: four threads adding to one stripe at once (as threads whose ids are a multiple of
     * {@link StripedCount#STRIPES} apart do) and four to their own; a lossy add (a plain read and an ordered write
     * instead of an atomic add) loses counts here.
     */
    @Test
    void countsEveryIncrementOfThreadsThatShareAStripe() throws Exception {
        StripedCount count = new StripedCount();
        int threads = 8;
        int each = 2_000_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long id = t < 4 ? 7 + t * (long) StripedCount.STRIPES : t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < each; i++) {
                    count.incrementAs(id);
                }
            });
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join(120_000);
        }
        assertEquals((long) threads * each, count.sum());
        count.increment();
        assertEquals((long) threads * each + 1, count.sum());
    }

    @Test
    void neighbouringThreadsAddToSlotsTwoCacheLinesApart() {
        assertEquals(16, StripedCount.slot(1) - StripedCount.slot(0)); // 16 longs: 128 bytes
        assertEquals(StripedCount.slot(3), StripedCount.slot(3 + StripedCount.STRIPES));
        assertNotEquals(StripedCount.slot(3), StripedCount.slot(4));
    }
}
