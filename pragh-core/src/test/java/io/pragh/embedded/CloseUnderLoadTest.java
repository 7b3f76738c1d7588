package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pragh.PraghException;
import io.pragh.durability.SyncPolicy;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.memory.ChunkedRegion;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import io.pragh.store.Mutators;
import io.pragh.store.StoreConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a cluster while client threads PUT, GET, APPEND, DELETE, MIGRATE and run worker tasks on every machine,
 * with the fault fabric delaying operations and messages and holding a share of CASes and messages until the close
 * lets them go. Closing must stop and join every thread it started before freeing memory, and every operation in
 * flight must end with a {@link PraghException} (or a refused worker task), never a crash of the JVM on freed memory
 * (what a delivery thread still inside an update did before the fix), another exception, or a thread left running.
 * A few rounds, every other one durable (log and snapshot threads too).
 */
class CloseUnderLoadTest {
    private static final int MACHINES = 4;
    private static final int CLIENTS = 6;
    private static final int ROUNDS = 4;
    private static final long PATIENCE_MILLIS = 120_000;

    @TempDir
    Path dir;

    /** An operation a client started without waiting for it. */
    private record Async(String what, CompletableFuture<?> future) {
    }

    @Test
    void closingUnderLoadJoinsEveryThreadAndFailsInFlightOperationsWithAClearException() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            closeUnderLoad(round, round % 2 == 1 ? dir.resolve("round-" + round) : null);
        }
    }

    private static EmbeddedCluster cluster(FaultFabric fabric, Path durable) {
        StoreConfig config = StoreConfig.defaults().withKeys(1_000).withValueBytes(4L << 20).withChunkBytes(1 << 20)
            .withCacheBytes(64 << 10).withReclaimRingSlots(1 << 10).withLeases(new Leases(5, 10))
            .withLeakScanMillis(5);
        EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(MACHINES).workersPerMachine(1)
            .pinThreads(false).config(config).operationTimeoutMillis(3_000).fabricPerMachine(i -> fabric);
        if (durable != null) {
            b.durability(durable, SyncPolicy.NONE, 50);
        }
        return b.build();
    }

    private void closeUnderLoad(int round, Path durable) throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        long memoryBefore = ChunkedRegion.liveBytes();
        FaultFabric fabric = new FaultFabric(new InProcessFabric(MACHINES, 0), 100 + round);
        EmbeddedCluster cluster = cluster(fabric, durable);
        long[] keys = new long[64];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = KeyLayout.key(i / 2 + 1, 0, i % 2 == 0 ? KeyLayout.VERTEX : KeyLayout.OUT);
        }
        fabric.when().oneSided().probability(0.05).delay(0, 300, TimeUnit.MICROSECONDS);
        fabric.when().messages().probability(0.05).delay(0, 300, TimeUnit.MICROSECONDS);

        AtomicLong done = new AtomicLong();
        AtomicBoolean closeReturned = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Async> asyncs = new ConcurrentLinkedQueue<>();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int id = c;
            Thread t = new Thread(() -> client(cluster, keys, id, round, closeReturned, done, unexpected, asyncs),
                "close-test-client-" + c);
            t.setDaemon(true);
            clients.add(t);
            t.start();
        }
        // Close in the thick of it: operations answered, then CASes and messages held (until the close lets them go:
        // a held CAS keeps its thread, a delivery or migration thread too, waiting).
        long started = System.nanoTime();
        long deadline = started + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MILLIS);
        while (done.get() < 300 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        HoldRule heldCases = fabric.when().cas().probability(0.05).first().hold();
        while (heldCases.holding() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        HoldRule heldMessages = fabric.when().messages().probability(0.05).first().hold();
        while (heldMessages.everHeld() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(done.get() >= 300 && heldCases.holding() >= 1 && heldMessages.everHeld() >= 1, "round " + round
            + ": the load never got going (" + done.get() + " operations, " + heldCases.holding() + " CASes and "
            + heldMessages.everHeld() + " messages held)");

        Thread closer = new Thread(cluster::close, "close-test-closer");
        int casesHeld = heldCases.holding();
        long closing = System.nanoTime();
        closer.start();
        closer.join(PATIENCE_MILLIS);
        System.out.printf("round %d: %d operations in %d ms, %d CASes and %d messages held; close took %d ms%n", round,
            done.get(), TimeUnit.NANOSECONDS.toMillis(closing - started), casesHeld, heldMessages.everHeld(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing));
        assertFalse(closer.isAlive(), "round " + round + ": close did not return within " + PATIENCE_MILLIS + " ms");
        List<String> running = threadsLeft(before);
        closeReturned.set(true);
        for (Thread t : clients) {
            t.join(PATIENCE_MILLIS);
            assertFalse(t.isAlive(), "round " + round + ": " + t.getName() + " is stuck after the close");
        }
        for (Async a : asyncs) {
            try {
                a.future().get(PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                expected(e.getCause(), unexpected);
            } catch (TimeoutException e) {
                fail("round " + round + ": " + a.what() + " never completed after the close");
            }
        }
        assertTrue(unexpected.isEmpty(), "round " + round + ": operations failed with what a caller cannot make sense"
            + " of: " + describe(unexpected));

        PraghException after = assertThrows(PraghException.class, () -> cluster.machine(1).put(keys[0], new byte[8]));
        assertTrue(after.getMessage().contains("closed"), after.getMessage());
        after = assertThrows(PraghException.class, () -> cluster.machine(2).get(keys[1]));
        assertTrue(after.getMessage().contains("closed"), after.getMessage());

        assertTrue(running.isEmpty(), "round " + round + ": threads of the closed cluster still run: " + running);
        assertEquals(memoryBefore, ChunkedRegion.liveBytes(), "round " + round + ": the cluster's memory was not"
            + " freed (left allocated because something still ran in it?)");
    }

    private static void client(EmbeddedCluster cluster, long[] keys, int id, int round, AtomicBoolean closeReturned,
                               AtomicLong done,
                               ConcurrentLinkedQueue<Throwable> unexpected,
                               ConcurrentLinkedQueue<Async> asyncs) {
        SplittableRandom rnd = new SplittableRandom(round * 31L + id);
        while (!closeReturned.get()) {
            Machine m = cluster.machine(rnd.nextInt(MACHINES));
            long key = keys[rnd.nextInt(keys.length)];
            int dice = rnd.nextInt(100);
            try {
                if (dice < 40) {
                    m.get(key);
                } else if (dice < 60) {
                    m.put(key, new byte[8 + rnd.nextInt(200)]);
                } else if (dice < 75) {
                    m.update(key, Mutators.APPEND, new byte[] {(byte) id, 1, 2, 3, 4, 5, 6, 7});
                } else if (dice < 82) {
                    m.delete(key);
                } else if (dice < 92) {
                    CompletableFuture<Migrator.Outcome> f = m.migrateAsync(key);
                    if (asyncs.size() < 10_000) {
                        asyncs.add(new Async("a MIGRATE to machine " + m.id(), f));
                    }
                } else {
                    CompletableFuture<byte[]> f = m.submit(() -> m.get(key));
                    if (asyncs.size() < 10_000) {
                        asyncs.add(new Async("a task on machine " + m.id() + "'s worker", f));
                    }
                }
                done.incrementAndGet();
            } catch (RuntimeException e) {
                expected(e, unexpected);
            }
        }
    }

    /** A failure a caller can act on: a {@link PraghException}, or a worker task refused by a closed pool. */
    private static void expected(Throwable e, ConcurrentLinkedQueue<Throwable> unexpected) {
        Throwable c = e;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (!(c instanceof PraghException) && !(c instanceof RejectedExecutionException)) {
            unexpected.add(c);
        }
    }

    private static String describe(ConcurrentLinkedQueue<Throwable> errors) {
        StringBuilder b = new StringBuilder();
        errors.stream().limit(3).forEach(e -> {
            b.append('\n').append(e);
            for (StackTraceElement f : e.getStackTrace()) {
                b.append("\n    at ").append(f);
            }
        });
        return errors.size() + " of them:" + b;
    }

    /** Threads the cluster started that are alive after its close returned: it should have joined every one. */
    private static List<String> threadsLeft(Set<Thread> before) {
        List<String> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t) && t.isAlive() && t.getName().startsWith("pragh-")) {
                left.add(t.getName());
            }
        }
        return left;
    }
}
