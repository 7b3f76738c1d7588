package io.pragh.bench.traversal;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;

/**
 * The CPU time this JVM spent, all its threads together, for the benchmark's cost per query: on a host shared with
 * other work, queries a second move with the load while CPU time per query does not (much), so modes measured at
 * different loads compare by it. Every thread counts: the query threads, the machines' control threads (monitors,
 * migration, delivery, GC of values), the JVM's own (JIT, garbage collection) and the harness.
 *
 * <pre>{@code
 * long cpu0 = ProcessCpu.nanos();
 * runQueries();
 * out.println(ProcessCpu.perQuery(ProcessCpu.nanos() - cpu0, seconds, queries));
 * }</pre>
 */
public final class ProcessCpu {
    private ProcessCpu() {
    }

    /** CPU time of this process so far in nanoseconds, or -1 when the platform does not tell it. */
    public static long nanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** One line: the cores the process kept busy over {@code seconds} and its CPU microseconds per query. */
    public static String perQuery(long cpuNanos, double seconds, long queries) {
        if (cpuNanos < 0) {
            return "cpu: not measured (the platform gives no process CPU time)";
        }
        return String.format(Locale.ROOT, "cpu: %.2f cores busy, %.0f us of process CPU per query (%.2f s over %d"
            + " queries)", cpuNanos / 1e9 / seconds, queries == 0 ? Double.NaN : cpuNanos / 1e3 / queries,
            cpuNanos / 1e9, queries);
    }
}
