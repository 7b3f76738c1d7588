package io.pragh.gremlin.distributed;

import io.pragh.server.cli.LocalCluster;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

import java.util.function.Supplier;

/**
 * Prints the last lines of every machine's log when a test of a process cluster fails: the cluster's directory is a
 * {@code @TempDir} that goes with the test, and what a server logged (a disconnected peer, a halt) is what tells a
 * slow machine from a lost update.
 *
 * <p>Example: {@code @RegisterExtension static final MachineLogsOnFailure logs = new MachineLogsOnFailure(() -> cluster);}
 */
final class MachineLogsOnFailure implements TestWatcher {
    private static final int LINES = 60;
    private final Supplier<LocalCluster> cluster;

    MachineLogsOnFailure(final Supplier<LocalCluster> cluster) {
        this.cluster = cluster;
    }

    @Override
    public void testFailed(final ExtensionContext context, final Throwable cause) {
        final LocalCluster c = cluster.get();
        if (c != null) {
            System.out.println(context.getDisplayName() + " failed (" + cause + "); the machines' logs:\n"
                + c.logTails(LINES));
        }
    }
}
