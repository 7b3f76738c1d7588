package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a durable machine the commit observer runs on the log's thread, in the step that then settles the logged record
 * (clears its pending bit) and answers the update's origin. A record its home published for itself has nothing else
 * to settle it: no host sends its LOG again. So an observer that threw (a bug in whoever turns commits into events)
 * left the key's record pending for good, its update never acknowledged, every GET of the key failing after 5 s and
 * every later update of it refused ("found the key's previous update still unsettled"), with nothing in any log: the
 * exception ended in the completion's own future, which nobody reads. Both tests fail that way without the fix (the
 * update is not acknowledged within the bound); with it, the observer's failure is logged and the update goes on.
 */
class LoggedUpdatesSettleWhateverTheCommitObserverDoesTest {
    /** A failure bound only: each update below takes milliseconds. */
    private static final long PATIENCE_SECONDS = 20;

    @TempDir
    Path dir;

    private EmbeddedCluster open() {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).durability(dir, SyncPolicy.BATCH, 0).build();
    }

    @Test
    void anUpdateFromAnotherMachineIsSettledAndAcknowledgedThoughTheHomesObserverThrew() throws Exception {
        try (EmbeddedCluster c = open()) {
            long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
            int home = c.home(key);
            int origin = (home + 1) % 3;
            AtomicInteger thrown = throwOnceFor(c, home, key);
            // The first value: the home inserts the record for itself, as the stuck Gremlin addV's id block was.
            awaitAcknowledged(c.machine(origin).updateAsync(key, Mutators.SET, bytes("first")), "the insert");
            awaitAcknowledged(c.machine(origin).updateAsync(key, Mutators.SET, bytes("second")), "the next update");
            assertEquals(1, thrown.get(), "the observer threw");
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(bytes("second"), c.machine(m).get(key), "machine " + m);
            }
        }
    }

    @Test
    void anUpdateMadeAtTheHomeIsSettledAndAcknowledgedThoughItsObserverThrew() throws Exception {
        try (EmbeddedCluster c = open()) {
            long key = KeyLayout.key(6, 0, KeyLayout.VERTEX);
            int home = c.home(key);
            awaitAcknowledged(c.machine(home).updateAsync(key, Mutators.SET, bytes("first")), "the insert");
            AtomicInteger thrown = throwOnceFor(c, home, key);
            awaitAcknowledged(c.machine(home).updateAsync(key, Mutators.APPEND, bytes("+more")), "the append");
            awaitAcknowledged(c.machine((home + 2) % 3).updateAsync(key, Mutators.APPEND, bytes("+last")),
                "the append after it");
            assertEquals(1, thrown.get(), "the observer threw");
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(bytes("first+more+last"), c.machine(m).get(key), "machine " + m);
            }
        }
    }

    /** Installs on the key's home an observer that throws at the key's next commit; counts the throws. */
    private static AtomicInteger throwOnceFor(EmbeddedCluster c, int home, long key) {
        AtomicInteger thrown = new AtomicInteger();
        c.machine(home).store().setCommitObserver((k, version, mutator, arg, off, len, deleted) -> {
            if (k == key && thrown.compareAndSet(0, 1)) {
                throw new IllegalStateException("an observer's bug, at key " + k);
            }
        });
        return thrown;
    }

    private static void awaitAcknowledged(CompletableFuture<Void> update, String what) throws Exception {
        try {
            update.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " was not acknowledged within " + PATIENCE_SECONDS + " s: its record"
                + " stayed pending at its home", e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
