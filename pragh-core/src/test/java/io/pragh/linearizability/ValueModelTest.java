package io.pragh.linearizability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The model's states are memoized by the search, so equal values must make equal states with equal hashes however
 * they were reached: an APPEND's state hashes on from its predecessor's, a PUT's hashes its bytes whole.
 */
class ValueModelTest {
    private static final ValueModel M = ValueModel.INSTANCE;

    @Test
    void appendsReachTheSameStateAsAPutOfTheirConcatenation() {
        byte[] a = {1, 2, 3};
        byte[] b = {-7, 0, 127, -128};
        ValueModel.State appended = M.step(M.step(M.initial(), Operation.append(1, 9, a, 0, 1)),
            Operation.append(1, 9, b, 2, 3));
        ValueModel.State put = M.step(M.initial(), Operation.put(2, 9, new byte[] {1, 2, 3, -7, 0, 127, -128}, 4, 5));
        assertEquals(put, appended);
        assertEquals(put.hashCode(), appended.hashCode());
        assertArrayEquals(put.value(), appended.value());
        ValueModel.State afterPut = M.step(M.step(M.initial(), Operation.put(3, 9, a, 6, 7)),
            Operation.append(3, 9, b, 8, 9));
        assertEquals(put, afterPut);
        assertEquals(put.hashCode(), afterPut.hashCode());
    }

    @Test
    void anAppendToAnUnknownValueKeepsItUnknownAndHashesAlike() {
        byte[] a = {4, 5};
        ValueModel.State once = M.step(M.unknown(), Operation.append(1, 9, a, 0, 1));
        ValueModel.State again = M.step(M.unknown(), Operation.append(2, 9, a.clone(), 2, 3));
        assertEquals(once, again);
        assertEquals(once.hashCode(), again.hashCode());
        assertEquals(false, once.known());
    }
}
