package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.traversal.DutyCpu.Duty;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class DutyCpuTest {
    /** Keeps the spin's result alive. */
    private static volatile long sink;

    @Test
    void threadNamesMapToTheirDuties() {
        assertEquals(Duty.QUERIES, DutyCpu.dutyOf("pragh-bench-query-0-3"));
        assertEquals(Duty.QUERIES, DutyCpu.dutyOf("pragh-bench-query-12-17"));
        assertEquals(Duty.MONITORS, DutyCpu.dutyOf("pragh-migration-control"));
        assertEquals(Duty.MIGRATION, DutyCpu.dutyOf("pragh-m3-migration"));
        assertEquals(Duty.REPLICAS, DutyCpu.dutyOf("pragh-m2-replicas"));
        assertEquals(Duty.RECLAIM, DutyCpu.dutyOf("pragh-m7-gc"));
        assertEquals(Duty.LEAK_SCAN, DutyCpu.dutyOf("pragh-m0-leakscan"));
        assertEquals(Duty.INBOX, DutyCpu.dutyOf("pragh-m5-inbox"));
        assertEquals(Duty.WORKERS, DutyCpu.dutyOf("pragh-m1-worker-0"));
        assertEquals(Duty.WORKERS, DutyCpu.dutyOf("pragh-m11-worker-12"));
        assertEquals(Duty.UPDATES, DutyCpu.dutyOf("pragh-m4-peer-sends-9"));
        assertEquals(Duty.UPDATES, DutyCpu.dutyOf("pragh-m4-log-resend"));
        assertEquals(Duty.UPDATES, DutyCpu.dutyOf("pragh-m4-deferred"));
        assertEquals(Duty.UPDATES, DutyCpu.dutyOf("pragh-m4-settle"));
        assertEquals(Duty.DURABILITY, DutyCpu.dutyOf("pragh-m4-wal"));
        assertEquals(Duty.HARNESS, DutyCpu.dutyOf("main"));
        assertEquals(Duty.HARNESS, DutyCpu.dutyOf("pragh-bench-timeline"));
        assertEquals(Duty.HARNESS, DutyCpu.dutyOf("pragh-bench-loader"));
        assertEquals(Duty.JVM, DutyCpu.dutyOf("Reference Handler"));
        assertEquals(Duty.JVM, DutyCpu.dutyOf("Common-Cleaner"));
    }

    @Test
    void namesOfNoKnownDutyAreOther() {
        assertEquals(Duty.OTHER, DutyCpu.dutyOf("ForkJoinPool.commonPool-worker-1"));
        assertEquals(Duty.OTHER, DutyCpu.dutyOf("pragh-m3-something-new"));
        assertEquals(Duty.OTHER, DutyCpu.dutyOf("pragh-mx-migration"));
        assertEquals(Duty.OTHER, DutyCpu.dutyOf("pragh-bench-queryish"), "a query thread's name has its prefix");
        assertEquals(Duty.OTHER, DutyCpu.dutyOf(""));
    }

    @Test
    void theJvmsNativeThreadsMapByTheirLinuxNames() {
        assertEquals(Duty.GC, DutyCpu.nativeDutyOf("GC Thread#3"));
        assertEquals(Duty.GC, DutyCpu.nativeDutyOf("G1 Conc#0"));
        assertEquals(Duty.GC, DutyCpu.nativeDutyOf("G1 Refine#0"));
        assertEquals(Duty.JIT, DutyCpu.nativeDutyOf("C2 CompilerThre"));
        assertEquals(Duty.JIT, DutyCpu.nativeDutyOf("C1 CompilerThre"));
        assertEquals(Duty.JVM, DutyCpu.nativeDutyOf("VM Thread"));
        assertEquals(null, DutyCpu.nativeDutyOf("pragh-m3-migra"), "a Java thread is the thread MXBean's");
        assertEquals(null, DutyCpu.nativeDutyOf("java"));
    }

    @Test
    void aThreadStartedInsideTheWindowCountsUnderItsDutyAndTheLineShowsMicrosecondsPerQuery() throws Exception {
        DutyCpu.Window w = DutyCpu.open();
        CountDownLatch spun = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            // Spin until this thread's CPU clock passed 20 ms: whatever the machine's speed, it did that much work.
            long sum = 0;
            long start = threadNanos();
            while (threadNanos() - start < 20_000_000L) {
                sum += sum >>> 3 ^ 7;
            }
            sink = sum;
            spun.countDown();
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "pragh-m1-migration");
        t.setDaemon(true);
        t.start();
        spun.await();
        DutyCpu.Split split = w.close();
        t.interrupt();
        assertNotNull(split, "this JVM measures thread CPU time");
        assertTrue(split.nanos().get(Duty.MIGRATION) >= 20_000_000L, "migration CPU " + split.nanos());
        assertTrue(split.processNanos() >= split.nanos().get(Duty.MIGRATION), "the process's CPU includes it");
        assertTrue(split.usPerQuery(10).get("migration") >= 2_000, split.usPerQuery(10).toString());
    }

    @Test
    void theLineListsDutiesThatTookCpuInOrder() {
        Map<Duty, Long> nanos = new EnumMap<>(Duty.class);
        for (Duty d : Duty.values()) {
            nanos.put(d, 0L);
        }
        nanos.put(Duty.QUERIES, 1_500_000L);
        nanos.put(Duty.MONITORS, 600_000L);
        nanos.put(Duty.UNSEEN, 25_000L);
        DutyCpu.Split split = new DutyCpu.Split(nanos, 2_125_000L, new TreeSet<>());
        assertEquals("cpu by duty (us per query): queries 150.0, monitors 60.0, unseen 2.5",
            split.line(10));
        assertEquals(0.0, split.usPerQuery(10).get("replicas"));
        assertEquals(Duty.values().length, split.usPerQuery(10).size(), "every duty is in the JSON object");
    }

    private static long threadNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
