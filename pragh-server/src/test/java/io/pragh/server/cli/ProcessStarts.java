package io.pragh.server.cli;

/**
 * The failure bound of a test's wait for a server process it started to serve ({@link LocalCluster#startAll},
 * {@link LocalCluster#awaitServing}). A new JVM's start is the work a starved host delays most: beside two busy loops
 * on this shared 2-core host, child JVMs took 0.3 s to 21 s to print their first line and keytool starts took 20 s to
 * more than 100 s (session 16), where a quiet host takes a second or two. A bound, not an expectation: a machine that
 * serves returns the wait at once.
 *
 * <pre>{@code
 * cluster.startAll(true, ProcessStarts.SERVING_BOUND_MILLIS);
 * }</pre>
 */
public final class ProcessStarts {
    /** How long a started machine may take to serve before the test fails. */
    public static final long SERVING_BOUND_MILLIS = 300_000;

    private ProcessStarts() {
    }
}
