package io.pragh.consistency;

import static io.pragh.consistency.StoreAssembly.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pragh.fabric.Region;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.migration.Migrator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Pins the ordering the update protocol promises (UpdateProtocol's class comment): once an update is acknowledged,
 * no reader anywhere can read an older value as valid, even when the value got there through a chain of migrations
 * run by different machines. The window is frozen deterministically: machine 1's MIGRATE is held between its CAS
 * and its invalidation of the source copy while machine 2 migrates the value on and a PUT is acknowledged.
 */
class ChainedMigrationInvalidationTest {
    private static final int HOME = 0;
    private static final int FIRST_TARGET = 1;
    private static final int SECOND_TARGET = 2;
    private static final int READER = 3;

    /** How long the chain may take to be judged as not waiting: it needs microseconds when nothing holds it. */
    private static final long CHAIN_PATIENCE_MILLIS = 2_000;

    @Test
    void aPutAcknowledgedAfterAChainedMigrationHidesThePreMigrationCopyFromCachedReaders() throws Exception {
        PausableFabric fabric = new PausableFabric(new InProcessFabric(4, 0), 4);
        try (StoreAssembly cluster = new StoreAssembly(fabric, 4, StoreAssembly.smallConfig())) {
            long key = cluster.keyHomedAt(HOME, 1);
            cluster.put(HOME, key, utf8("v1"));
            // The reader caches the address of v1's record on the home (a default 5 s cache lease).
            assertArrayEquals(utf8("v1"), cluster.get(READER, key));

            // Machine 1 migrates the value and is frozen right after its CAS, before it invalidates the source header.
            PausableFabric.Pause beforeInvalidation = fabric.pauseNextUpdate(FIRST_TARGET, Region.VALUES, 8);
            CompletableFuture<Migrator.Outcome> first = CompletableFuture.supplyAsync(
                () -> new Migrator(cluster.store(FIRST_TARGET)).migrate(key));
            CompletableFuture<Migrator.Outcome> second;
            try {
                beforeInvalidation.awaitReached();
                // Then machine 2 migrates the value on (1 -> 2), and a PUT of v2 follows. A correct protocol either
                // delays this chain until machine 1 has invalidated the home's copy, or is not fooled by that copy.
                second = CompletableFuture.supplyAsync(() -> {
                    Migrator.Outcome o = new Migrator(cluster.store(SECOND_TARGET)).migrate(key);
                    cluster.put(HOME, key, utf8("v2"));
                    return o;
                });
                if (StoreAssembly.settleWithin(second, CHAIN_PATIENCE_MILLIS) == StoreAssembly.Settled.DONE) {
                    // PUT(v2) is acknowledged while machine 1 has still not invalidated v1's record on the home.
                    // This GET starts after that acknowledgement, so v1 is overwritten in real time.
                    assertArrayEquals(utf8("v2"), cluster.get(READER, key),
                        "a GET that began after PUT(v2) was acknowledged returned the pre-migration copy v1: the copy"
                            + " on the home was still valid because machine " + FIRST_TARGET + "'s migration had not"
                            + " invalidated it yet, and nothing made machine " + SECOND_TARGET + "'s migration or the"
                            + " acknowledgement of v2 wait for another machine's pending invalidation");
                } else {
                    System.out.println("ChainedMigrationInvalidationTest: the migration 1 -> 2 and PUT(v2) waited"
                        + " for machine " + FIRST_TARGET + "'s invalidation (" + CHAIN_PATIENCE_MILLIS + " ms)");
                }
            } finally {
                beforeInvalidation.release();
            }
            assertEquals(Migrator.Outcome.MIGRATED, first.get(60, TimeUnit.SECONDS));
            assertEquals(Migrator.Outcome.MIGRATED, second.get(60, TimeUnit.SECONDS));
            assertArrayEquals(utf8("v2"), cluster.get(READER, key), "after the invalidation the reader sees v2");
        }
    }
}
