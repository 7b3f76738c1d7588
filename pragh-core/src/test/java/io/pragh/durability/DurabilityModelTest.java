package io.pragh.durability;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.ThreadDumpWhenUnacknowledged;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Mutators;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model-based durability check: random PUTs, APPENDs, DELETEs (and so re-inserts of deleted keys), migrations to
 * random machines, snapshots (on demand and in the background, racing the writes) and restarts at random points,
 * with every key compared against a {@link HashMap} model after every recovery and at random points in between.
 *
 * <p>A restart is either clean (close, reopen the same directories) or a crash: a few updates are started and not
 * awaited, each machine's data directory is copied while its log may be mid-write (under the durability's lock, so
 * no snapshot creates or deletes files during the copy; the log only appends, so the copy is what a process crash
 * at that instant leaves on disk, torn tail included), and a new cluster recovers from the copies. Under the
 * policies that fsync, half the crashes are power losses instead: each log segment is copied only up to the
 * position the log had forced to disk when the copy began. An update acknowledged before the copy must survive;
 * one still in flight may or may not, and the model follows what recovery gives, after checking it is one of the
 * two.
 *
 * <p>Deterministic by seed for the sequence of operations (thread timing still varies); a failure names the seed,
 * and {@code -Dpragh.durability.seed=N} replays it. Every sync policy is covered, since each promises that an
 * acknowledged update survives a process crash.
 */
@ExtendWith(ThreadDumpWhenUnacknowledged.class)
class DurabilityModelTest {
    private static final int MACHINES = 3;
    private static final int KEYS = 24;
    private static final int MAX_VALUE = 400;
    private static final long DEFAULT_SEED = 0x5EED_D0_11L;

    @TempDir
    Path root;

    private final Random random = new Random();
    private final long[] keys = new long[KEYS];
    private final Map<Long, byte[]> model = new HashMap<>();
    private SyncPolicy policy;
    private int generation;
    private int recoveries;
    private int crashes;
    private int powerLosses;
    private int inFlightLost;
    private long tornBytes;
    private String lastOp = "none";

    /** Operations per policy: ALWAYS pays an fsync per update, so it gets fewer. */
    private static int operations(SyncPolicy policy) {
        return policy == SyncPolicy.ALWAYS ? 1500 : 3000;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SyncPolicy.class)
    void everyAcknowledgedUpdateSurvivesRandomRestartsAndCrashes(SyncPolicy policy) {
        long seed = Long.getLong("pragh.durability.seed", DEFAULT_SEED) ^ policy.ordinal();
        this.policy = policy;
        random.setSeed(seed);
        for (int i = 0; i < KEYS; i++) {
            long vertex = 1 + i / 2;
            keys[i] = i % 2 == 0 ? KeyLayout.key(vertex, 0, KeyLayout.VERTEX) : KeyLayout.key(vertex, 0, KeyLayout.OUT);
        }
        int op = 0;
        EmbeddedCluster c = open();
        try {
            for (op = 0; op < operations(policy); op++) {
                c = step(c);
            }
            c = restartCleanly(c);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("durability model failed under " + policy + " with seed " + seed + " at operation "
                + op + " (" + lastOp + "; " + recoveries + " recoveries so far); replay with -Dpragh.durability.seed="
                + Long.getLong("pragh.durability.seed", DEFAULT_SEED) + " (each policy's seed is that one xor its"
                + " ordinal): " + e.getMessage(), e);
        } finally {
            c.close();
        }
        assertTrue(recoveries >= 10 && crashes >= 5, "too few restarts to mean anything: " + recoveries
            + " recoveries, " + crashes + " crashes");
        System.out.printf("durability model %s seed %d: %d operations, %d recoveries (%d from crash images, "
            + "%d power losses), %d in-flight updates lost by a crash, %d torn bytes cut%n", policy, seed,
            operations(policy), recoveries, crashes, powerLosses, inFlightLost, tornBytes);
    }

    private Path directory() {
        return root.resolve("gen-" + generation);
    }

    private EmbeddedCluster open() {
        return EmbeddedCluster.builder().machines(MACHINES).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(16 << 20).cacheBytes(1 << 16).remoteLatencyNs(0)
            .durability(directory(), policy, 20).build();
    }

    private EmbeddedCluster step(EmbeddedCluster c) {
        long key = keys[random.nextInt(KEYS)];
        int origin = random.nextInt(MACHINES);
        int r = random.nextInt(1000);
        if (r >= 350 && r < 550 && length(model.get(key)) > MAX_VALUE) {
            r = 0; // keep values small: a long-appended value is overwritten instead
        }
        if (r < 350) {
            byte[] value = randomBytes(random.nextInt(40));
            lastOp = "PUT key " + key + " from machine " + origin;
            c.machine(origin).put(key, value);
            model.put(key, value);
        } else if (r < 550) {
            byte[] arg = randomBytes(8);
            lastOp = "APPEND key " + key + " from machine " + origin;
            c.machine(origin).update(key, Mutators.APPEND, arg);
            model.put(key, appended(model.get(key), arg));
        } else if (r < 680) {
            lastOp = "DELETE key " + key + " from machine " + origin;
            c.machine(origin).delete(key);
            model.remove(key);
        } else if (r < 800) {
            lastOp = "MIGRATE key " + key + " to machine " + origin;
            c.machine(origin).migrate(key);
        } else if (r < 830) {
            lastOp = "snapshot of machine " + origin;
            try {
                c.machine(origin).durability().snapshot();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else if (r < 845) {
            lastOp = "durable values of machine " + origin;
            checkDurableValues(c, origin);
        } else if (r < 860) {
            lastOp = "clean restart";
            return restartCleanly(c);
        } else if (r < 880) {
            lastOp = "crash";
            return crash(c);
        } else {
            lastOp = "GET key " + key + " from machine " + origin;
            check(c, key, origin, "live read");
        }
        return c;
    }

    private EmbeddedCluster restartCleanly(EmbeddedCluster c) {
        c.close();
        EmbeddedCluster next = open();
        recoveries++;
        checkAll(next, "after a clean restart");
        return next;
    }

    private record InFlight(long key, byte[] before, byte[] after, CompletableFuture<Void> done, String what) {
    }

    /** Starts a few updates, copies every data directory as a crash would leave it, and recovers from the copies. */
    private EmbeddedCluster crash(EmbeddedCluster c) {
        List<InFlight> inFlight = new ArrayList<>();
        Set<Long> busy = new HashSet<>();
        int n = random.nextInt(5);
        for (int i = 0; i < n; i++) {
            long key = keys[random.nextInt(KEYS)];
            if (!busy.add(key)) {
                continue; // one update per key: two concurrent ones could be applied in either order
            }
            int origin = random.nextInt(MACHINES);
            byte[] before = model.get(key);
            int kind = random.nextInt(3);
            if (kind == 1 && length(before) > MAX_VALUE) {
                kind = 0;
            }
            byte[] arg = randomBytes(kind == 2 ? 0 : 8 + random.nextInt(16));
            int mutator = kind == 0 ? Mutators.SET : kind == 1 ? Mutators.APPEND : Mutators.DELETE;
            byte[] after = kind == 0 ? arg : kind == 1 ? appended(before, arg) : null;
            inFlight.add(new InFlight(key, before, after, c.machine(origin).updateAsync(key, mutator, arg),
                (kind == 0 ? "PUT" : kind == 1 ? "APPEND" : "DELETE") + " of key " + key + " from machine "
                    + origin));
        }
        // What was acknowledged before the copies began must be in them.
        boolean[] acknowledged = new boolean[inFlight.size()];
        for (int i = 0; i < inFlight.size(); i++) {
            CompletableFuture<Void> f = inFlight.get(i).done();
            acknowledged[i] = f.isDone() && !f.isCompletedExceptionally();
        }
        Path from = directory();
        generation++;
        Path to = directory();
        boolean powerLoss = policy != SyncPolicy.NONE && random.nextBoolean();
        powerLosses += powerLoss ? 1 : 0;
        for (int m = 0; m < MACHINES; m++) {
            Durability d = c.machine(m).durability();
            synchronized (d) { // Durability.snapshot() holds this monitor while it writes and deletes files
                long synced = powerLoss ? d.log().syncedPosition() : Long.MAX_VALUE;
                copyDirectory(from.resolve("machine-" + m), to.resolve("machine-" + m), synced);
            }
        }
        if (random.nextInt(3) == 0) {
            appendTornRecord(to.resolve("machine-" + random.nextInt(MACHINES)));
        }
        for (InFlight f : inFlight) {
            try {
                f.done().get(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ignored) {
                // Its fate is decided by the copy, not by what the abandoned cluster made of it.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
        c.close();
        EmbeddedCluster next = open();
        recoveries++;
        crashes++;
        for (int m = 0; m < MACHINES; m++) {
            tornBytes += next.machine(m).durability().recovered().tornBytes();
        }
        for (int i = 0; i < inFlight.size(); i++) {
            InFlight f = inFlight.get(i);
            byte[] actual = next.machine(random.nextInt(MACHINES)).get(f.key());
            boolean applied = Arrays.equals(actual, f.after());
            if (acknowledged[i] && !applied) {
                fail("the " + f.what() + ", acknowledged before the crash, is lost: key holds " + show(actual)
                    + ", expected " + show(f.after()));
            }
            if (!applied && !Arrays.equals(actual, f.before())) {
                fail("after a crash during the " + f.what() + " the key holds " + show(actual) + ", neither the value"
                    + " before it (" + show(f.before()) + ") nor after it (" + show(f.after()) + ")");
            }
            if (!applied && !Arrays.equals(f.before(), f.after())) {
                inFlightLost++;
            }
            put(f.key(), actual);
        }
        checkAll(next, "after recovering from a crash image");
        return next;
    }

    private void checkAll(EmbeddedCluster c, String when) {
        for (long key : keys) {
            check(c, key, random.nextInt(MACHINES), when);
        }
    }

    private void check(EmbeddedCluster c, long key, int reader, String when) {
        byte[] actual = c.machine(reader).get(key);
        byte[] expected = model.get(key);
        if (!Arrays.equals(expected, actual)) {
            fail(when + ": key " + key + " (home " + c.home(key) + ", read on machine " + reader + ") holds "
                + show(actual) + ", the model " + show(expected));
        }
    }

    /** The read-only replay of a home's live log gives exactly the model's values of the keys homed there. */
    private void checkDurableValues(EmbeddedCluster c, int home) {
        Map<Long, Recovery.DurableValue> durable = c.machine(home).durability().durableValues(k -> true);
        for (long key : keys) {
            if (c.home(key) != home) {
                continue;
            }
            Recovery.DurableValue d = durable.get(key);
            byte[] actual = d == null ? null : d.value();
            if (!Arrays.equals(model.get(key), actual)) {
                fail("durable value of key " + key + " on its home " + home + " is " + show(actual) + ", the model "
                    + show(model.get(key)));
            }
        }
    }

    private void put(long key, byte[] value) {
        if (value == null) {
            model.remove(key);
        } else {
            model.put(key, value);
        }
    }

    private byte[] randomBytes(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    private static int length(byte[] value) {
        return value == null ? 0 : value.length;
    }

    private static byte[] appended(byte[] current, byte[] arg) {
        byte[] cur = current == null ? new byte[0] : current;
        byte[] out = Arrays.copyOf(cur, cur.length + arg.length);
        System.arraycopy(arg, 0, out, cur.length, arg.length);
        return out;
    }

    private static String show(byte[] value) {
        if (value == null) {
            return "no value";
        }
        String hex = HexFormat.of().formatHex(value, 0, Math.min(value.length, 16));
        return value.length + " bytes [" + hex + (value.length > 16 ? "..." : "") + "]";
    }

    /**
     * Appends the start of a record that a crash cut short to the last log segment (the copy itself rarely catches
     * the log mid-write): recovery must cut it off and keep everything before it.
     */
    private void appendTornRecord(Path machineDir) {
        try {
            List<Long> starts = Segments.walStarts(machineDir);
            if (starts.isEmpty()) {
                return;
            }
            byte[] torn = randomBytes(1 + random.nextInt(40));
            if (torn.length >= 4) {
                // A plausible length prefix, so the checksum is what exposes the record, not an absurd size.
                new org.agrona.concurrent.UnsafeBuffer(torn).putInt(0, LogRecord.ARG + random.nextInt(32));
            }
            Files.write(Segments.walFile(machineDir, starts.get(starts.size() - 1)), torn,
                java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies snapshots first (each forced to disk before it was renamed into place), then log segments in order, each
     * cut at log position {@code synced}: only the last segment may still grow meanwhile.
     */
    private static void copyDirectory(Path from, Path to, long synced) {
        try {
            Files.createDirectories(to);
            List<Path> files;
            try (Stream<Path> list = Files.list(from)) {
                files = list.sorted((a, b) -> {
                    boolean aLog = a.getFileName().toString().startsWith("wal-");
                    boolean bLog = b.getFileName().toString().startsWith("wal-");
                    return aLog != bLog ? Boolean.compare(aLog, bLog) : a.compareTo(b);
                }).toList();
            }
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (!name.startsWith("wal-") || synced == Long.MAX_VALUE) {
                    Files.copy(f, to.resolve(f.getFileName()));
                    continue;
                }
                long start = Long.parseLong(name.substring(4, name.length() - 4));
                byte[] bytes = Files.readAllBytes(f);
                int kept = (int) Math.max(0, Math.min(bytes.length, synced - start));
                Files.write(to.resolve(f.getFileName()), Arrays.copyOf(bytes, kept));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
        }
    }
}
