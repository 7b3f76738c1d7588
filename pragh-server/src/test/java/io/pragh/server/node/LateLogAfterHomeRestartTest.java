package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.store.HostUnavailableException;
import io.pragh.store.Mutators;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update applied on a migrated value's host whose LOG has not reached the key's home when the home crashes: the
 * host keeps sending the LOG while its record is pending, and the restarted home, which reloaded the key from its
 * log without the update, receives it. Logging and acknowledging it then (what the home did) acknowledged an update
 * that no read would ever see (the home's value was reloaded without it), and put it in the log among versions it
 * was never applied to; the home must refuse it, retryably. The interleaving HistoryOverTcpTest's restarts found
 * (seed 23: a host's LOG reached the restarted home 1 s, one resend, after its restart). Three server nodes on TCP,
 * durable; the host's LOGs to the home are dropped (by their length) until the home has restarted.
 * Fails without the home's check in {@code UpdateAcknowledgements#onLog}: the update is acknowledged, and every
 * machine then reads the value before it.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class LateLogAfterHomeRestartTest {
    private static final int MACHINES = 3;
    /** A PUT argument of a length no other message between these nodes has, so that its LOG can be picked out. */
    private static final int VALUE_BYTES = 1_234;
    /** {@code StoreMessages.LOG_ARG}: a LOG's bytes before its argument. */
    private static final int LOG_HEADER_BYTES = 56;

    @TempDir
    Path dir;

    @Test
    void anUpdateWhoseLogReachesItsHomeOnlyAfterTheHomeRestartedIsRefusedNotAcknowledgedAndLost() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(MACHINES).withSync("none")
            .withSection("policy", "{trigger: manual}")
            .withSection("leases", "{cache: 50ms, reclaim: 20ms}")).config();
        try (FaultyServerNodes nodes = new FaultyServerNodes(config, 1, f -> { })) {
            nodes.startAll();
            long key = KeyLayout.key(77, 0, KeyLayout.OUT);
            int home = nodes.home(key);
            int host = (home + 1) % MACHINES;
            int origin = (home + 2) % MACHINES;
            byte[] before = filled((byte) 1);
            byte[] after = filled((byte) 2);
            nodes.machine(home).put(key, before);
            assertEquals(Migrator.Outcome.MIGRATED, nodes.machine(host).migrate(key));

            FaultRule lostLogs = nodes.fabric(host).when().messages().to(home).length(LOG_HEADER_BYTES + VALUE_BYTES)
                .drop();
            CompletableFuture<Void> update = nodes.machine(origin).updateAsync(key, Mutators.SET, after);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (lostLogs.fired() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertTrue(lostLogs.fired() > 0, "the update's LOG never left its host: " + update);
            assertTrue(!update.isDone(), "the update was answered before its home logged it: " + update);

            // The host's location cache forgets the key, as an eviction would: its recovery from the home's restart
            // then does not find the pending record to reclaim as an orphan (PeerLoss#reclaimOrphans), and goes on
            // sending the LOG, as the hosts in HistoryOverTcpTest did.
            nodes.node(host).machine().store().cache().invalidateIf((k, address) -> k == key);
            nodes.restart(home); // reloads the key from its log, which never had the update
            lostLogs.remove();   // the host's next resend of the LOG reaches the restarted home

            boolean acknowledged;
            try {
                update.get(30, TimeUnit.SECONDS);
                acknowledged = true;
            } catch (ExecutionException refused) {
                assertInstanceOf(HostUnavailableException.class, refused.getCause(), "refused, and retryably");
                acknowledged = false;
            }
            for (int m = 0; m < MACHINES; m++) {
                assertArrayEquals(acknowledged ? after : before, nodes.machine(m).get(key), acknowledged
                    ? "machine " + m + " does not read an update that was acknowledged after its home restarted"
                    : "machine " + m + " does not read the value the home reloaded");
            }
            nodes.machine(origin).put(key, after); // and the key stays updatable
            assertArrayEquals(after, nodes.machine(home).get(key));
        }
    }

    private static byte[] filled(byte b) {
        byte[] v = new byte[VALUE_BYTES];
        Arrays.fill(v, b);
        return v;
    }
}
