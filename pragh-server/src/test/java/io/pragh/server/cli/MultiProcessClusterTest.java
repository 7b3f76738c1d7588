package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.server.membership.LoopbackZooKeeper;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClusterClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real server processes on loopback ports ({@code java -cp <test class path> ServerCommand}), each tied to
 * this JVM so that none outlives the run, with membership in an in-process ZooKeeper. One cluster serves every test;
 * each test leaves all machines serving.
 *
 * <p>Sessions of {@link #SESSION}: two tests wait for one to expire (a stopped or killed machine presumed dead), so
 * they cannot be as long as where nothing expires ({@link LoopbackZooKeeper#LONG_SESSION}), but every other machine
 * must keep its session however starved the host: a ZooKeeper client pings after a third of its session unheard and
 * the server ends the session after a whole one, so a process (or the ZooKeeper in this JVM) that does not run for
 * two thirds of it loses its session, and its machine halts. With 8 s sessions, server processes went 7.5 s unheard
 * in a full pragh-server run at load ~20 and halted, failing both expiry tests (4 s sessions were lost before that).
 * The waits for an expiry are bounded by the session plus a generous margin.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiProcessClusterTest {
    private static final int MACHINES = 3;
    private static final long START_MILLIS = ProcessStarts.SERVING_BOUND_MILLIS;
    private static final long SESSION_SECONDS = 20;
    private static final String SESSION = SESSION_SECONDS + "s";
    /** How long a wait for a session to expire (and the survivors to act on it) may take: a failure bound only. */
    private static final long EXPIRY_MILLIS = TimeUnit.SECONDS.toMillis(SESSION_SECONDS + 120);
    /** How long a wait for work under way may take before the test fails: a failure bound only. */
    private static final long PROGRESS_MILLIS = 120_000;

    /**
     * The test's client waits this long, so that an operation failing in under half of it can only have been answered
     * by the machine's own wait (10 s), however much a starved host stretches that.
     */
    private static final int CLIENT_TIMEOUT_MILLIS = 120_000;
    /**
     * How long a step retries retryable failures: a machine answers RETRY after its 10 s wait for an operation (twice
     * the small settings' 5 s request timeout), and on a host whose cores are taken by other work (a CPU hog beside
     * the suite) a run of those outlasted 20 s once.
     */
    private static final long RETRY_MILLIS = 60_000;
    /** The machines' logs live in the temporary directory, gone after the run: a failed test prints their ends. */
    @RegisterExtension
    static final TestWatcher MACHINE_LOGS_ON_FAILURE = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (cluster == null) {
                return;
            }
            for (int m = 0; m < MACHINES; m++) {
                System.err.println(context.getDisplayName() + " failed; machine " + m + "'s log ends:\n"
                    + LocalCluster.tail(cluster.log(m), 40));
            }
        }
    };
    @TempDir
    static Path dir;
    static LoopbackZooKeeper zk;
    static LocalCluster cluster;
    static ClusterClient client;

    @BeforeAll
    static void start() {
        zk = LoopbackZooKeeper.start();
        cluster = LocalCluster.create(dir.resolve("cluster"),
            LocalCluster.Settings.small(MACHINES).withZooKeeper(zk.connectString()).withSessionTimeout(SESSION));
        cluster.startAll(true, START_MILLIS);
        // A long client timeout, so that "failed fast" below can only mean the machine's own wait (10 s) answered.
        client = cluster.client(CLIENT_TIMEOUT_MILLIS);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            for (int m = 0; m < MACHINES; m++) {
                if (cluster.process(m).isEmpty()) {
                    System.err.println("machine " + m + " was not running at the end; its log ends:\n"
                        + LocalCluster.tail(cluster.log(m), 30));
                }
            }
            cluster.stopAll();
        }
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    @Order(1)
    void twoHopAnswersMatchAnEmbeddedClusterOnTheSameGraph() {
        Random rnd = new Random(42);
        int vertices = 150;
        try (EmbeddedCluster embedded = EmbeddedCluster.builder().machines(MACHINES).workersPerMachine(1)
            .keysPerMachine(16_384).valueBytesPerMachine(8 << 20).cacheBytes(1 << 20).remoteLatencyNs(0).build()) {
            for (int e = 0; e < 700; e++) {
                long src = 1 + rnd.nextInt(vertices);
                long dst = 1 + rnd.nextInt(vertices);
                // Retried on a retryable failure (a loaded machine may time out): a repeated edge cannot change a
                // two-hop answer, which is a set of vertices.
                retry(() -> {
                    client.addEdge(src, 0, dst);
                    return null;
                }, RETRY_MILLIS);
                embedded.graph().addEdge(src, 0, dst);
            }
            compareTwoHops(embedded, vertices);
            // Move adjacency values away from their homes in both clusters: answers must not change.
            for (long v = 1; v <= vertices; v += 3) {
                long key = KeyLayout.key(v, 0, KeyLayout.OUT);
                int target = (client.home(key) + 1) % MACHINES;
                Migrator.Outcome remote = retry(() -> client.machine(target).migrate(key), RETRY_MILLIS);
                Migrator.Outcome local = embedded.machine((embedded.home(key) + 1) % MACHINES).migrate(key);
                assertEquals(local == Migrator.Outcome.ABSENT, remote == Migrator.Outcome.ABSENT, "vertex " + v);
            }
            compareTwoHops(embedded, vertices);
        }
    }

    private static void compareTwoHops(EmbeddedCluster embedded, int vertices) {
        int nonEmpty = 0;
        for (long start = 1; start <= vertices; start += 5) {
            long[] expected = embedded.graph().kHop(start, 0, 2, 1_000).join();
            Arrays.sort(expected);
            long s = start;
            long[] actual = retry(() -> client.kHop(s, 0, 2, 1_000), RETRY_MILLIS);
            assertArrayEquals(expected, actual, "two hops from vertex " + start);
            nonEmpty += expected.length > 0 ? 1 : 0;
        }
        assertTrue(nonEmpty > 10, "the graph has two-hop neighbourhoods to compare: " + nonEmpty);
    }

    /**
     * A stopped process stands in for a partitioned peer: its connections stay open and nothing answers. Operations
     * that need it fail retryably within the request timeout; once its ZooKeeper session expired, peers presume it
     * dead, and when it resumes it finds its session lost and halts (fail-stop), to be restarted.
     */
    @Test
    @Order(2)
    void aStoppedPeerMakesOperationsFailFastWithARetryableError() throws Exception {
        int stopped = 2;
        long onStopped = keyHomedAt(stopped, 7_000);
        retry(() -> {
            client.put(onStopped, "before".getBytes());
            return null;
        }, RETRY_MILLIS);
        long pid = cluster.process(stopped).orElseThrow().pid();
        signal("STOP", pid); // a partitioned peer: its connections stay open, nothing answers
        awaitStopped(pid); // kill returns before every thread has stopped: one could still answer a request
        try {
            for (int attempt = 0; attempt < 3; attempt++) {
                long t0 = System.nanoTime();
                ClientException e = expectFailure(() -> client.machine(0).get(onStopped));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(e.retryable(), "GET through machine 0 is retryable: " + e.getMessage());
                assertTrue(ms < CLIENT_TIMEOUT_MILLIS / 2, "GET failed after " + ms + " ms: the machine's 10 s wait "
                    + "answered, not the client's " + CLIENT_TIMEOUT_MILLIS + " ms");
                t0 = System.nanoTime();
                e = expectFailure(() -> {
                    client.machine(1).put(onStopped, "during".getBytes());
                    return null;
                });
                ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(e.retryable(), "PUT through machine 1 is retryable: " + e.getMessage());
                assertTrue(ms < CLIENT_TIMEOUT_MILLIS / 2, "PUT failed after " + ms + " ms");
            }
            // Once the session expires the membership presumes it dead: operations fail at once, saying so, instead
            // of each waiting for the request timeout on connections the stopped process still holds open.
            String presumed = null;
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXPIRY_MILLIS);
            while (presumed == null && System.nanoTime() < until) {
                ClientException e = expectFailure(() -> client.machine(0).get(onStopped));
                assertTrue(e.retryable(), e.getMessage());
                presumed = e.getMessage().contains("presumed dead") ? e.getMessage() : null;
            }
            assertTrue(presumed != null && presumed.contains("machine " + stopped), "machine 0 never presumed machine "
                + stopped + " dead within " + EXPIRY_MILLIS + " ms: " + presumed);
        } finally {
            signal("CONT", pid);
        }
        ProcessHandle p = ProcessHandle.of(pid).orElse(null);
        if (p != null) {
            // Fails the test if the resumed machine serves on; generous, as a loaded host resumes slowly.
            p.onExit().get(RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
        cluster.start(stopped, true);
        cluster.awaitServing(stopped, START_MILLIS);
        byte[] after = retry(() -> client.machine(0).get(onStopped), RETRY_MILLIS);
        assertTrue(Arrays.equals("before".getBytes(), after) || Arrays.equals("during".getBytes(), after),
            "the value is the acknowledged one or the one whose outcome the client never learned: "
                + new String(after));
    }

    @Test
    @Order(3)
    void killMinusNineDuringWritesAndMigrationsLosesNoAcknowledgedWrite() throws Exception {
        int victim = 1;
        int writers = 3;
        int keysPerWriter = 40;
        long[] keys = new long[writers * keysPerWriter];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = KeyLayout.key(10_000 + i, 1, KeyLayout.PROPERTY);
        }
        AtomicLongArray attempted = new AtomicLongArray(keys.length);
        AtomicLongArray acknowledged = new AtomicLongArray(keys.length);
        AtomicLong retryable = new AtomicLong();
        AtomicLong migrated = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Throwable> errors = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int first = w * keysPerWriter;
            threads.add(new Thread(() -> {
                Random rnd = new Random(first);
                try (ClusterClient c = cluster.client(10_000)) {
                    while (running.get()) {
                        int k = first + rnd.nextInt(keysPerWriter);
                        long seq = attempted.incrementAndGet(k);
                        try {
                            c.put(keys[k], value(keys[k], seq));
                            acknowledged.accumulateAndGet(k, seq, Math::max);
                        } catch (ClientException e) {
                            if (!e.retryable()) {
                                throw e;
                            }
                            retryable.incrementAndGet();
                            sleep(5);
                        }
                    }
                } catch (Throwable t) {
                    synchronized (errors) {
                        errors.add(t);
                    }
                }
            }, "writer-" + w));
        }
        threads.add(new Thread(() -> {
            Random rnd = new Random(7);
            try (ClusterClient c = cluster.client(10_000)) {
                while (running.get()) {
                    try {
                        if (c.machine(rnd.nextInt(MACHINES)).migrate(keys[rnd.nextInt(keys.length)])
                            == Migrator.Outcome.MIGRATED) {
                            migrated.incrementAndGet();
                        }
                    } catch (ClientException e) {
                        if (!e.retryable()) {
                            throw e;
                        }
                        sleep(5);
                    }
                }
            } catch (Throwable t) {
                synchronized (errors) {
                    errors.add(t);
                }
            }
        }, "migrator"));
        threads.forEach(Thread::start);
        try {
            waitFor(() -> migrated.get() >= 20 && sum(acknowledged) >= 300, PROGRESS_MILLIS,
                "writes and migrations under way");
            long migratedBeforeKill = migrated.get();
            // Some values surely live on the victim when it dies: their homes must put them back.
            int onVictim = 0;
            for (int k = 0; k < keys.length && onVictim < 8; k++) {
                if (client.home(keys[k]) != victim
                    && client.machine(victim).migrate(keys[k]) == Migrator.Outcome.MIGRATED) {
                    onVictim++;
                }
            }
            assertTrue(onVictim > 0, "values migrated to the victim before the kill");
            long restoredBefore = restored(survivors(victim));
            cluster.kill(victim);
            long retryableAtKill = retryable.get();
            // ZooKeeper tells the survivors once the victim's session expires; they restore from their logs the
            // values that had migrated to it, and serve them while it is still down.
            waitFor(() -> restored(survivors(victim)) > restoredBefore, EXPIRY_MILLIS,
                "survivors restore the victim's values");
            assertTrue(retryable.get() > retryableAtKill, "operations needing the dead machine failed retryably");
            for (int k = 0; k < keys.length; k++) {
                if (client.home(keys[k]) != victim && acknowledged.get(k) > 0) {
                    int kk = k;
                    byte[] v = retry(() -> client.machine(client.home(keys[kk])).get(keys[kk]), RETRY_MILLIS);
                    assertNotNull(v, "key " + k + " is served by its home while the victim is down");
                }
            }
            cluster.start(victim, true);
            cluster.awaitServing(victim, START_MILLIS);
            long ackedAtRestart = sum(acknowledged);
            waitFor(() -> sum(acknowledged) >= ackedAtRestart + 100, PROGRESS_MILLIS,
                "writes resume after the restart");
            assertTrue(migratedBeforeKill >= 20, "migrations ran before the kill: " + migratedBeforeKill);
        } finally {
            running.set(false);
            for (Thread t : threads) {
                t.join(20_000);
            }
        }
        synchronized (errors) {
            if (!errors.isEmpty()) {
                for (int m = 0; m < MACHINES; m++) {
                    System.err.println("machine " + m + "'s log ends:\n" + LocalCluster.tail(cluster.log(m), 40));
                }
                fail("a load thread failed with a non-retryable error: " + errors.get(0), errors.get(0));
            }
        }
        for (int reader = 0; reader < MACHINES; reader++) {
            for (int k = 0; k < keys.length; k++) {
                int kk = k;
                int rr = reader;
                byte[] v = retry(() -> client.machine(rr).get(keys[kk]), RETRY_MILLIS);
                long acked = acknowledged.get(k);
                if (acked == 0) {
                    continue;
                }
                assertNotNull(v, "key " + k + " lost its value (acknowledged seq " + acked + ") on machine " + reader);
                UnsafeBuffer u = new UnsafeBuffer(v);
                assertEquals(keys[k], u.getLong(0), "key " + k + " read another key's bytes");
                long seq = u.getLong(8);
                assertTrue(seq >= acked && seq <= attempted.get(k), "key " + k + " on machine " + reader + " holds seq "
                    + seq + ": acknowledged up to " + acked + ", attempted up to " + attempted.get(k));
            }
        }
    }

    private static byte[] value(long key, long seq) {
        byte[] b = new byte[24];
        UnsafeBuffer u = new UnsafeBuffer(b);
        u.putLong(0, key);
        u.putLong(8, seq);
        u.putLong(16, ~seq);
        return b;
    }

    private static int[] survivors(int victim) {
        return java.util.stream.IntStream.range(0, MACHINES).filter(m -> m != victim).toArray();
    }

    private static long restored(int[] machines) {
        long n = 0;
        for (int m : machines) {
            int mm = m;
            n += retry(() -> client.machine(mm).ping(), RETRY_MILLIS).restoredValues();
        }
        return n;
    }

    private static long sum(AtomicLongArray a) {
        long s = 0;
        for (int i = 0; i < a.length(); i++) {
            s += a.get(i);
        }
        return s;
    }

    private static long keyHomedAt(int machine, long fromVid) {
        for (long v = fromVid; ; v++) {
            long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
            if (client.home(k) == machine) {
                return k;
            }
        }
    }

    interface Call<T> {
        T call();
    }

    private static ClientException expectFailure(Call<?> call) {
        try {
            call.call();
        } catch (ClientException e) {
            return e;
        }
        throw new AssertionError("the operation succeeded although a machine it needs is stopped");
    }

    /** Retries retryable failures until {@code millis} passed (a restarted or resumed peer reconnects). */
    private static <T> T retry(Call<T> call, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (true) {
            try {
                return call.call();
            } catch (ClientException e) {
                if (!e.retryable() || System.nanoTime() > deadline) {
                    throw e;
                }
                sleep(50);
            }
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier cond, long millis, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what + " (" + millis + " ms)");
            }
            sleep(20);
        }
    }

    private static void signal(String sig, long pid) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor(), "kill -" + sig + " " + pid);
    }

    /** Waits until every thread of {@code pid} is in the stopped state ('T' in /proc/PID/task/TID/stat). */
    private static void awaitStopped(long pid) throws IOException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        // A failure bound: each thread stops once the kernel next schedules it, which a starved host delays.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            boolean all = true;
            try (var list = java.nio.file.Files.list(tasks)) {
                for (Path t : (Iterable<Path>) list::iterator) {
                    String stat;
                    try {
                        stat = java.nio.file.Files.readString(t.resolve("stat"));
                    } catch (java.nio.file.NoSuchFileException gone) {
                        continue; // a thread that ended meanwhile
                    }
                    // The state follows the command name, which is in parentheses and may hold spaces.
                    char state = stat.charAt(stat.lastIndexOf(')') + 2);
                    all &= state == 'T' || state == 't';
                }
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("process " + pid + " did not stop within 120 s of SIGSTOP");
            }
            sleep(10);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
