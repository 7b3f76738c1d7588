package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void processCpuTimeGrowsWithWorkDoneOnThisThread() {
        long before = ProcessCpu.nanos();
        assertTrue(before > 0, "this JVM reports its process CPU time");
        // Spin until the process clock moved (its resolution may be a scheduler tick): it must, with work done.
        long sum = 0;
        long after = before;
        for (long i = 0; after == before && i < 50_000_000_000L; i++) {
            sum += i ^ (sum >>> 3);
            if ((i & 0xFFFFF) == 0) {
                after = ProcessCpu.nanos();
            }
        }
        assertTrue(after > before, "the CPU clock moved after work (" + sum + ")");
    }

    @Test
    void theLineGivesCoresBusyAndMicrosecondsPerQuery() {
        assertEquals("cpu: 1.50 cores busy, 300 us of process CPU per query (3.00 s over 10000 queries)",
            ProcessCpu.perQuery(3_000_000_000L, 2.0, 10_000));
        assertEquals("cpu: not measured (the platform gives no process CPU time)", ProcessCpu.perQuery(-1, 2.0, 5));
    }
}
