package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class RestoreTest {
    private static final long DURABLE_MARK = 0x0D0_0D0_0D0L;

    private static UnsafeBuffer longBuf(long v) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        b.putLong(0, v);
        return b;
    }

    /**
     * The durable value of a key whose value migrated to a machine that then died is put back while another machine
     * keeps APPENDing to the key. Every acknowledged APPEND must land after the durable value: an APPEND that found the
     * key empty during the restore would start a fresh list that the restore then keeps or overwrites, and the check
     * below sees either the durable value or an acknowledged element go missing.
     */
    @Test
    void aConcurrentAppendNeverStartsFromAnEmptyKeyDuringRestore() throws Exception {
        try (TestStores c = new TestStores(3)) {
            MachineStore home = c.stores[0];
            int trials = 150;
            for (int t = 1; t <= trials; t++) {
                long key = c.keyHomedOn(0, t);
                long lost = c.placedOn(2, key, longBuf(DURABLE_MARK).byteArray());
                assertEquals(2, Address.host(lost, 0), "the value lives on machine 2 before it dies");
                c.fabric.setReachable(2, false);

                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong next = new AtomicLong();
                List<Long> acknowledged = new ArrayList<>();
                long[] refusedRetryably = {0};
                Thread appender = new Thread(() -> {
                    while (!stop.get() || acknowledged.size() < 2) {
                        long v = next.incrementAndGet();
                        try {
                            c.stores[1].update(key, Mutators.APPEND, longBuf(v), 0, 8).join();
                            acknowledged.add(v);
                        } catch (CompletionException e) {
                            if (!(e.getCause() instanceof HostUnavailableException u) || !u.retryable()) {
                                throw e;
                            }
                            refusedRetryably[0]++;
                        }
                    }
                });
                appender.start();
                // Let the appender run against the dead host for a moment so the restore races a running append.
                while (refusedRetryably[0] == 0 && appender.isAlive()) {
                    Thread.onSpinWait();
                }
                byte[] durable = longBuf(DURABLE_MARK).byteArray();
                assertTrue(home.restore(key, lost, 1, new UnsafeBuffer(durable), 0, durable.length).join());
                stop.set(true);
                appender.join(10_000);
                assertFalse(appender.isAlive(), "the appender finished");

                ValueView v = home.newSession().get(key);
                assertEquals(DURABLE_MARK, v.getLong(0), "trial " + t + ": the durable value heads the list");
                assertEquals(1 + acknowledged.size(), v.longCount(),
                    "trial " + t + ": exactly the durable value and every acknowledged append");
                for (int i = 0; i < acknowledged.size(); i++) {
                    assertEquals(acknowledged.get(i), v.getLong(1 + i), "trial " + t + ", append " + i);
                }
                c.fabric.setReachable(2, true);
            }
        }
    }

    @Test
    void aRestoreLosesToAWordThatAlreadyMovedOn() {
        try (TestStores c = new TestStores(3)) {
            long key = c.keyHomedOn(0, 1);
            long lost = c.placedOn(2, key, longBuf(1).byteArray());
            byte[] first = longBuf(7).byteArray();
            assertTrue(c.stores[0].restore(key, lost, 1, new UnsafeBuffer(first), 0, 8).join());
            byte[] second = longBuf(9).byteArray();
            assertFalse(c.stores[0].restore(key, lost, 1, new UnsafeBuffer(second), 0, 8).join(),
                "a second restore of the same lost address finds the word moved on");
            assertEquals(7, c.stores[1].newSession().get(key).getLong(0));
            assertEquals(0, Address.host(c.addressAtHome(key), 0), "the restored value is a local record at home");
        }
    }

    @Test
    void aRestoreOfADeletedKeyClearsItsWord() {
        try (TestStores c = new TestStores(3)) {
            long key = c.keyHomedOn(0, 1);
            long lost = c.placedOn(2, key, longBuf(1).byteArray());
            assertTrue(c.stores[0].restore(key, lost, 1, null, 0, 0).join());
            assertNull(c.stores[1].newSession().get(key));
            assertEquals(Address.NONE, c.addressAtHome(key));
        }
    }

    @Test
    void aRestoreStartsANewIncarnationAboveTheDurableVersion() {
        try (TestStores c = new TestStores(3)) {
            long key = c.keyHomedOn(0, 1);
            long lost = c.placedOn(2, key, longBuf(1).byteArray());
            long durableVersion = io.pragh.values.ValueRecord.firstVersion(1_000) + 5;
            assertTrue(c.stores[0].restore(key, lost, durableVersion, new UnsafeBuffer(longBuf(3).byteArray()), 0, 8)
                .join());
            long version = c.stores[0].newSession().get(key).version();
            assertTrue(version > durableVersion, "restored version " + version + " above durable " + durableVersion);
        }
    }
}
