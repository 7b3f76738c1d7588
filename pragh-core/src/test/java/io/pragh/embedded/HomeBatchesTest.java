package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.PraghException;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Mutators;
import io.pragh.store.ValueMutator;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;

class HomeBatchesTest {
    private static final int REFUSE = Mutators.FIRST_PROVIDER_ID;

    private static final ValueMutator APPEND = Mutators.withBuiltins().get(Mutators.APPEND);

    /** Appends like APPEND, but refuses an argument whose first byte is 13. */
    private static final ValueMutator REFUSING_APPEND = new ValueMutator() {
        @Override
        public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
            if (argLen > 0 && arg.getByte(argOff) == 13) {
                throw new IllegalArgumentException("13 is refused");
            }
            return APPEND.newLength(cur, curOff, curLen, arg, argOff, argLen);
        }

        @Override
        public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                          MutableDirectBuffer dst, int dstOff) {
            APPEND.write(cur, curOff, curLen, arg, argOff, argLen, dst, dstOff);
        }
    };

    private static EmbeddedCluster cluster() {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).remoteLatencyNs(0)
            .valueBytesPerMachine(8 << 20).keysPerMachine(16_384).cacheBytes(1 << 20)
            .mutator(REFUSE, REFUSING_APPEND).build();
    }

    private static long key(int i) {
        return KeyLayout.key(i, 1, KeyLayout.OUT);
    }

    private static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    @Test
    void aLargeBatchReachesEveryHomeAndAppendsToOneKeyAllLand() {
        try (EmbeddedCluster c = cluster()) {
            // 1,200 SETs of 1 KiB over three homes: about 400 KiB a home, so each home's part takes two messages.
            int n = 1_200;
            long[] keys = new long[n];
            int[] mutators = new int[n];
            byte[][] args = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = key(i);
                args[i] = new byte[1024];
                ByteBuffer.wrap(args[i]).putLong(i * 7L);
            }
            c.machine(1).updateAll(keys, mutators, args, n);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(args[i], c.machine(2).get(key(i)), "key " + i);
            }
            int appends = 300;
            long[] same = new long[appends];
            int[] append = new int[appends];
            byte[][] parts = new byte[appends][];
            for (int i = 0; i < appends; i++) {
                same[i] = key(n + 1);
                append[i] = Mutators.APPEND;
                parts[i] = bytes(i);
            }
            int origin = c.homeOf(key(n + 1)).id() == 0 ? 1 : 0;
            c.machine(origin).updateAll(same, append, parts, appends);
            byte[] all = c.machine(origin).get(key(n + 1));
            assertEquals(appends * 8, all.length);
            long sum = 0;
            for (ByteBuffer b = ByteBuffer.wrap(all); b.hasRemaining(); ) {
                sum += b.getLong();
            }
            assertEquals((long) appends * (appends - 1) / 2, sum, "every append once, in any order");
            assertEquals(0, c.machine(origin).homeBatches().pending());
        }
    }

    @Test
    void aRefusedUpdateFailsTheCallNamingWhyAndTheOthersStillLand() {
        try (EmbeddedCluster c = cluster()) {
            int n = 200;
            long[] keys = new long[n];
            int[] mutators = new int[n];
            byte[][] args = new byte[n][];
            int refused = -1;
            for (int i = 0; i < n; i++) {
                keys[i] = key(i);
                mutators[i] = REFUSE;
                args[i] = new byte[] {(byte) (i % 50 == 13 ? 13 : 1)};
                if (refused < 0 && i % 50 == 13 && c.homeOf(keys[i]).id() != 0) {
                    refused = i;
                }
            }
            assertTrue(refused >= 0, "some refused update is homed away from the caller");
            PraghException e = assertThrows(PraghException.class, () -> c.machine(0).updateAll(keys, mutators, args, n));
            assertTrue(e.getMessage().contains("13 is refused"), e.getMessage());
            for (int i = 0; i < n; i++) {
                if (i % 50 == 13) {
                    assertNull(c.machine(0).get(keys[i]), "refused key " + i);
                } else {
                    assertArrayEquals(new byte[] {1}, c.machine(0).get(keys[i]), "key " + i);
                }
            }
        }
    }
}
