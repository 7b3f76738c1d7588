package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

/**
 * A durable home publishes an update's record (pending) before it appends the update to its log, and only the log's
 * completion clears the bit. When the append itself threw (a log that cannot take the record: out of memory for its
 * copy, say), the update was refused to its origin but its record, already in the key's address word, stayed pending
 * for good: a record the home published for itself has no host that sends its LOG again. Every GET of the key then
 * failed after 5 s and every later update was refused. The append's failure must be handled as the log's refusal is:
 * the bit cleared, the origin told. Fails without the fix (the GET after the refusal finds the record still pending).
 */
class AHomesRecordIsSettledWhenItsLogRefusesTheAppendTest {
    private static final long PATIENCE_SECONDS = 20;

    @Test
    void anAppendThatThrowsRefusesTheUpdateAndLeavesTheKeyReadableAndUpdatable() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).build()) {
            long key = KeyLayout.key(9, 0, KeyLayout.VERTEX);
            int home = c.home(key);
            int origin = (home + 1) % 3;
            c.machine(origin).put(key, bytes("before"));
            MachineStore store = c.machine(home).store();
            AtomicBoolean fail = new AtomicBoolean(true);
            store.setUpdateLog(new UpdateLog() {
                @Override
                public void append(long k, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen,
                                   int logOrigin, long request) {
                    if (fail.getAndSet(false)) {
                        throw new IllegalStateException("the log cannot take key " + k);
                    }
                    store.acknowledge(logOrigin, request); // durable at once: a log that always keeps up
                }
            });
            ExecutionException refused = assertThrows(ExecutionException.class,
                () -> c.machine(origin).updateAsync(key, Mutators.SET, bytes("refused")).get(PATIENCE_SECONDS,
                    TimeUnit.SECONDS));
            assertTrue(String.valueOf(refused.getCause().getMessage()).contains("cannot take key"),
                "the origin hears why: " + refused.getCause());
            for (int m = 0; m < 3; m++) {
                // The refused update took effect in memory (as when the log fails after the write): what matters is
                // that its record is no longer pending, so the key reads at once.
                assertArrayEquals(bytes("refused"), c.machine(m).get(key), "machine " + m);
            }
            c.machine(origin).updateAsync(key, Mutators.SET, bytes("after")).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            assertArrayEquals(bytes("after"), c.machine(home).get(key));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
