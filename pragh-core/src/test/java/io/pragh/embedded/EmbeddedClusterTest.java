package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.memory.ChunkedRegion;
import io.pragh.migration.Migrator;
import io.pragh.store.Mutators;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EmbeddedClusterTest {
    private EmbeddedCluster cluster;

    @BeforeEach
    void open() {
        cluster = EmbeddedCluster.builder().machines(4).workersPerMachine(1).keysPerMachine(10_000)
            .valueBytesPerMachine(8 << 20).cacheBytes(1 << 20).remoteLatencyNs(0).build();
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A vertex key whose home is {@code home}. */
    long keyHomedAt(int home, long from) {
        for (long vid = from; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
            if (cluster.home(key) == home) {
                return key;
            }
        }
    }

    long hostOf(long key) {
        Machine home = cluster.homeOf(key);
        long slot = home.store().keys().find(key);
        return Address.host(home.store().keys().address(slot), home.id());
    }

    @Test
    void eachMachinesDutyThreadsAreNamedForThatMachine() {
        for (int m = 0; m < 4; m++) {
            assertEquals("pragh-m" + m + "-deferred", cluster.machine(m).store().deferredUpdates().threadName());
            assertEquals("pragh-m" + m + "-settle", cluster.machine(m).store().uncertainUpdates().threadName());
        }
    }

    @Test
    void aValuePutOnOneMachineIsReadOnEvery() {
        long key = keyHomedAt(2, 1);
        cluster.machine(0).put(key, bytes("alice"));
        for (int m = 0; m < 4; m++) {
            assertArrayEquals(bytes("alice"), cluster.machine(m).get(key), "read on machine " + m);
        }
        assertNull(cluster.machine(1).get(keyHomedAt(2, KeyLayout.vid(key) + 1)), "absent keys read as null");
    }

    @Test
    void migrationMovesTheValueButNotTheKeyAndReadsBecomeLocal() {
        long key = keyHomedAt(1, 1);
        cluster.machine(0).put(key, bytes("bob"));
        assertEquals(1, hostOf(key));
        assertEquals(Migrator.Outcome.MIGRATED, cluster.machine(3).migrate(key));
        assertEquals(3, hostOf(key), "the home's address word now points at machine 3");
        assertEquals(Migrator.Outcome.ALREADY_LOCAL, cluster.machine(3).migrate(key));
        Machine reader = cluster.machine(3);
        reader.get(key);
        FabricStats.Snapshot before = reader.stats().snapshot();
        for (int i = 0; i < 10; i++) {
            assertArrayEquals(bytes("bob"), reader.get(key));
        }
        FabricStats.Snapshot d = reader.stats().snapshot().minus(before);
        assertEquals(0, d.remoteOps(), "cache hit plus migrated value: fully local");
        assertEquals(20, d.localOps());
        for (int m = 0; m < 4; m++) {
            assertArrayEquals(bytes("bob"), cluster.machine(m).get(key), "still readable on " + m);
        }
    }

    @Test
    void aPutAfterMigrationIsForwardedToTheValuesHost() {
        long key = keyHomedAt(0, 1);
        cluster.machine(0).put(key, bytes("v1"));
        cluster.machine(2).migrate(key);
        cluster.machine(1).put(key, bytes("v2-longer-value"));
        assertEquals(2, hostOf(key), "the PUT ran where the value lives, so it stays there");
        for (int m = 0; m < 4; m++) {
            assertArrayEquals(bytes("v2-longer-value"), cluster.machine(m).get(key));
        }
        assertEquals(Migrator.Outcome.MIGRATED, cluster.machine(0).migrate(key), "and it can migrate back home");
        assertEquals(0, hostOf(key));
        assertArrayEquals(bytes("v2-longer-value"), cluster.machine(2).get(key));
    }

    @Test
    void deleteRemovesAMigratedValueEverywhere() {
        long key = keyHomedAt(3, 1);
        cluster.machine(0).put(key, bytes("gone soon"));
        cluster.machine(1).migrate(key);
        cluster.machine(2).delete(key);
        for (int m = 0; m < 4; m++) {
            assertNull(cluster.machine(m).get(key));
        }
        cluster.machine(0).put(key, bytes("back"));
        assertArrayEquals(bytes("back"), cluster.machine(1).get(key));
    }

    @Test
    void versionsCountUpdatesAcrossHostsAndGrowAcrossDeletes() {
        long key = keyHomedAt(1, 1);
        Machine reader = cluster.machine(0);
        reader.put(key, bytes("a"));
        long first = reader.session().get(key).version();
        reader.put(key, bytes("b"));
        cluster.machine(2).migrate(key);
        reader.put(key, bytes("c"));
        assertEquals(first + 2, reader.session().get(key).version(), "two updates, one of them on the new host");
        reader.delete(key);
        reader.put(key, bytes("d"));
        assertTrue(reader.session().get(key).version() > first + 2, "a re-inserted key starts a newer incarnation");
    }

    @Test
    void concurrentEdgeInsertsToOneVertexLoseNoEdge() throws Exception {
        long src = 7;
        long key = KeyLayout.key(src, 0, KeyLayout.OUT);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            for (int i = 0; i < 50; i++) {
                all.add(cluster.machine(m).updateAsync(key, Mutators.APPEND,
                    io.pragh.graph.KHopTraversal.encode(m * 1000L + i)));
            }
            if (m == 1) {
                cluster.machine(3).migrateAsync(key);
            }
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).join();
        long[] n = cluster.graph().neighbours(0, src, 0);
        assertEquals(200, n.length);
        Set<Long> seen = new HashSet<>();
        Arrays.stream(n).forEach(seen::add);
        assertEquals(200, seen.size());
    }

    @Test
    void twoHopTraversalRunsOnTheStartVertexsHome() {
        AdjacencyLists g = cluster.graph();
        g.addEdge(1, 0, 2);
        g.addEdge(1, 0, 3);
        g.addEdge(2, 0, 4);
        g.addEdge(3, 0, 4);
        g.addEdge(3, 0, 5);
        long[] twoHop = g.kHop(1, 0, 2, 100).join();
        Arrays.sort(twoHop);
        assertArrayEquals(new long[] {4, 5}, twoHop);
        assertArrayEquals(new long[] {4}, sorted(g.kHop(1, 0, 2, 1).join()), "fanout caps neighbours per vertex");
    }

    static long[] sorted(long[] a) {
        Arrays.sort(a);
        return a;
    }

    @Test
    void anOversizeValueIsRefusedAndTheOldValueSurvives() {
        EmbeddedCluster small = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(100)
            .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0)
            .config(io.pragh.store.StoreConfig.defaults().withKeys(100).withValueBytes(1 << 20).withCacheBytes(1 << 16)
                .withReclaimRingSlots(64).withMaxValueBytes(1024))
            .build();
        try {
            long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
            small.machine(0).put(key, bytes("keep me"));
            PraghException e = assertThrows(PraghException.class, () -> small.machine(1).put(key, new byte[4096]));
            assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
            assertArrayEquals(bytes("keep me"), small.machine(1).get(key));
        } finally {
            small.close();
        }
    }

    @Test
    void withHcaOnlyAtomicsEveryAddressAndHeaderCasGoesThroughTheFabric() {
        ((io.pragh.fabric.inprocess.InProcessFabric) cluster.fabric()).setCpuAtomicsCoherent(false);
        long key = keyHomedAt(2, 1);
        Machine home = cluster.machine(2);
        FabricStats.Snapshot before = home.stats().snapshot();
        home.put(key, bytes("v1"));
        home.put(key, bytes("v2"));
        // A header CAS can race a migration's one-sided CAS of the same header (an append's lock and publishing CAS
        // against its source's invalidation), so headers go through the fabric too, as address words do.
        assertEquals(4, home.stats().snapshot().minus(before).remoteAtomics(),
            "at the home: the insert's address CAS, then the replacement's lock, address CAS and invalidation of the"
                + " old record, all through the fabric (settling a new record meets no other CAS but a home's, which"
                + " writes the same word; the old record goes to the home's own GC thread directly, no ring CAS)");
        cluster.machine(0).migrate(key);
        assertEquals(Migrator.Outcome.MIGRATED, home.migrate(key), "migrating back home CASes through the fabric");
        cluster.machine(1).update(key, Mutators.APPEND, bytes("+"));
        for (int m = 0; m < 4; m++) {
            assertArrayEquals(bytes("v2+"), cluster.machine(m).get(key));
        }
    }

    @Test
    void malformedMessagesAreDroppedAndCountedAndLoseNothing() throws Exception {
        long key = keyHomedAt(1, 1);
        cluster.machine(0).put(key, bytes("intact"));
        io.pragh.fabric.Endpoint attacker = cluster.machine(0).store().endpoint();
        org.agrona.concurrent.UnsafeBuffer b = new org.agrona.concurrent.UnsafeBuffer(new byte[64]);
        b.putByte(0, io.pragh.store.StoreMessages.UPDATE);
        attacker.send(1, b, 0, 10);                     // shorter than the UPDATE header
        b.putInt(32, 1000);
        attacker.send(1, b, 0, 40);                     // argument length disagrees with the frame
        b.putInt(32, 4);
        b.putInt(4, 77);
        attacker.send(1, b, 0, 40);                     // origin machine that does not exist
        b.putByte(0, (byte) 200);
        attacker.send(1, b, 0, 8);                      // unknown type
        attacker.send(1, b, 0, 0);                      // empty
        b.putByte(0, io.pragh.store.StoreMessages.ACK);
        attacker.send(1, b, 0, 12);                     // short ACK
        org.agrona.concurrent.UnsafeBuffer replicate = new org.agrona.concurrent.UnsafeBuffer(new byte[112]);
        replicate.putByte(0, (byte) 5);                 // REPLICATE
        replicate.putByte(56, (byte) 6);                // then a REPLICA_ANSWER in the same message
        attacker.send(1, replicate, 0, 112);
        attacker.send(1, replicate, 0, 60);             // a REPLICATE and a piece of one
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (cluster.machine(1).store().malformedMessages() < 8 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(8, cluster.machine(1).store().malformedMessages());
        assertArrayEquals(bytes("intact"), cluster.machine(2).get(key));
        cluster.machine(2).put(key, bytes("still writable"));
        assertArrayEquals(bytes("still writable"), cluster.machine(1).get(key));
    }

    @Test
    void closingTheClusterFreesAllOffHeapMemory() {
        long before = ChunkedRegion.liveBytes();
        EmbeddedCluster c = EmbeddedCluster.builder().machines(2).keysPerMachine(1000).valueBytesPerMachine(4 << 20)
            .cacheBytes(1 << 16).remoteLatencyNs(0).build();
        c.machine(0).put(KeyLayout.key(1, 0, KeyLayout.VERTEX), bytes("x"));
        assertTrue(ChunkedRegion.liveBytes() > before + (8 << 20));
        c.close();
        assertEquals(before, ChunkedRegion.liveBytes());
    }
}
