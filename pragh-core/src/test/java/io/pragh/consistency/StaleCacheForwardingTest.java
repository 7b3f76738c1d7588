package io.pragh.consistency;

import static io.pragh.consistency.StoreAssembly.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.pragh.fabric.Region;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.migration.Migrator;
import io.pragh.store.Mutators;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Check-and-forward must deliver an update to the value even when a machine's location cache is stale: a cached
 * address is a hint that GET validates by reading the record, but an update forwarded on it is never validated, so
 * two machines whose entries point at each other would bounce the update between them until it gives up. Frozen
 * deterministically: machine 1's MIGRATE is held after its CAS (the value now lives on machine 1) and before it
 * refreshes its own cache, which still holds the pre-migration address on machine 2 that its lookup cached.
 */
class StaleCacheForwardingTest {
    private static final int HOME = 0;
    private static final int NEW_HOST = 1;
    private static final int OLD_HOST = 2;

    @Test
    void anUpdateReachesAValueWhoseNewHostStillCachesItsOldAddress() throws Exception {
        PausableFabric fabric = new PausableFabric(new InProcessFabric(3, 0), 3);
        try (StoreAssembly cluster = new StoreAssembly(fabric, 3, StoreAssembly.smallConfig())) {
            long key = cluster.keyHomedAt(HOME, 1);
            cluster.put(HOME, key, utf8("v1"));
            assertEquals(Migrator.Outcome.MIGRATED, new Migrator(cluster.store(OLD_HOST)).migrate(key));

            // Machine 1 migrates the value from machine 2 and is held between its CAS and its invalidation.
            PausableFabric.Pause afterCas = fabric.pauseNextUpdate(NEW_HOST, Region.VALUES, 8);
            CompletableFuture<Migrator.Outcome> migration = CompletableFuture.supplyAsync(
                () -> new Migrator(cluster.store(NEW_HOST)).migrate(key));
            CompletableFuture<Void> put;
            boolean failedWhileHeld;
            try {
                afterCas.awaitReached();
                byte[] v2 = utf8("v2");
                put = cluster.store(HOME).update(key, Mutators.SET, new UnsafeBuffer(v2), 0, v2.length);
                // The update may wait for the migration to finish, but must not be refused meanwhile.
                failedWhileHeld = StoreAssembly.settleWithin(put, 1_000) == StoreAssembly.Settled.FAILED;
            } finally {
                afterCas.release();
            }
            assertFalse(failedWhileHeld, "the PUT was refused while machine " + NEW_HOST + " held the value: "
                + failure(put) + ". Machine " + NEW_HOST + " forwarded it on its cached address (the old one on"
                + " machine " + OLD_HOST + ") without checking it, and machine " + OLD_HOST + " sent it back");
            put.get(60, TimeUnit.SECONDS);
            assertEquals(Migrator.Outcome.MIGRATED, migration.get(60, TimeUnit.SECONDS));
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(utf8("v2"), cluster.get(m, key), "read on machine " + m);
            }
        }
    }

    private static String failure(CompletableFuture<?> f) {
        try {
            f.getNow(null);
            return "no failure";
        } catch (RuntimeException e) {
            return String.valueOf(e.getCause());
        }
    }
}
