package io.pragh.gremlin.structure;

/**
 * Threads of the graph's own background duties (the segment sweep), whose GETs are housekeeping, not a user's
 * reads: view read events are not tapped for them, so a read handler (a hot view's read counter above all) never
 * counts them. The sweep reads every list homed on its machine every sweep period; counted, those reads gave machines
 * nobody read through a share of a hot view's placement ({@code ./pragh bench hotspot --fabric tcp}).
 *
 * <p>Example: {@code if (DutyReads.onDutyThread()) return;   // in a read tap}
 */
public final class DutyReads {
    /** A duty's thread: a class of its own, so that telling one costs a type check, no lookup. */
    private static final class DutyThread extends Thread {
        DutyThread(final Runnable task, final String name) {
            super(task, name);
            setDaemon(true);
        }
    }

    private DutyReads() {
    }

    /** A new (daemon) thread for a background duty of the graph, named {@code name}, running {@code task}. */
    public static Thread newThread(final Runnable task, final String name) {
        return new DutyThread(task, name);
    }

    /** Whether the calling thread runs one of the graph's background duties. */
    public static boolean onDutyThread() {
        return Thread.currentThread() instanceof DutyThread;
    }
}
