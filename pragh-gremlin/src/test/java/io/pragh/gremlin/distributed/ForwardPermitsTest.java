package io.pragh.gremlin.distributed;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** At most {@code max} permits are out at once; a refusal is counted, never waited out; a return not taken is a bug. */
class ForwardPermitsTest {
    @Test
    void grantsUpToItsBoundAndCountsWhatItRefuses() {
        final ForwardPermits permits = new ForwardPermits(2);
        assertTrue(permits.tryAcquire());
        assertTrue(permits.tryAcquire());
        assertFalse(permits.tryAcquire(), "the third forward at once is refused");
        assertFalse(permits.tryAcquire());
        assertEquals(2, permits.inFlight());
        assertEquals(2, permits.forwarded());
        assertEquals(2, permits.refused());

        permits.release();
        assertEquals(1, permits.inFlight());
        assertTrue(permits.tryAcquire(), "a returned permit is granted again");
        assertEquals(3, permits.forwarded());
        permits.release();
        permits.release();
        assertEquals(0, permits.inFlight());
    }

    @Test
    void aReturnOfAPermitNotTakenIsRefusedAndTheBoundStays() {
        final ForwardPermits permits = new ForwardPermits(1);
        final IllegalStateException e = assertThrows(IllegalStateException.class, permits::release);
        assertTrue(e.getMessage().contains("not taken"), e.getMessage());
        assertTrue(permits.tryAcquire());
        assertFalse(permits.tryAcquire(), "the bad return did not widen the bound");
    }

    @Test
    void aBoundBelowOneIsAnError() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ForwardPermits(0));
        assertEquals("forwards in flight at once must be at least 1, got 0", e.getMessage());
    }
}
