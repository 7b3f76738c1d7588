package io.pragh.embedded;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Prints every thread's stack when a test fails because an update or GET was not acknowledged in time, then lets the
 * failure through. Such a failure has so far come only on a host with many times more runnable threads than cores
 * (load average 35-70 on 2), once in dozens of runs: by the time anyone looks, the cluster is gone, and the dump taken
 * at the timeout is what shows which thread the update was waiting on.
 *
 * <pre>{@code
 * @ExtendWith(ThreadDumpWhenUnacknowledged.class)
 * class DurabilityTest { ... }
 * }</pre>
 */
public final class ThreadDumpWhenUnacknowledged implements TestExecutionExceptionHandler {
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        if (unacknowledged(failure)) {
            StringBuilder dump = new StringBuilder(context.getDisplayName())
                .append(" failed on an unacknowledged operation; every thread at that moment:\n");
            for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                dump.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
                if (t.getLockName() != null) {
                    dump.append(" on ").append(t.getLockName());
                }
                dump.append('\n');
                for (StackTraceElement e : t.getStackTrace()) {
                    dump.append("    at ").append(e).append('\n');
                }
            }
            System.err.println(dump);
        }
        throw failure;
    }

    private static boolean unacknowledged(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = c.getMessage();
            if (m != null && m.contains("not acknowledged within")) {
                return true;
            }
        }
        return false;
    }
}
