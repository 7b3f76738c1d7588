package io.pragh.server.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The supervisor's restart back-off, driven by given times: doubling after short runs, capped, reset by a long run. */
class RestartBackoffTest {
    @Test
    void aMachineThatKeepsCrashingAtOnceWaitsDoublingUpToTheCap() {
        final RestartBackoff b = RestartBackoff.standard();
        long now = 0;
        b.started(now);
        final long[] expected = {1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000};
        for (final long wait : expected) {
            now += 500; // crashed half a second after its start
            assertEquals(wait, b.exited(now));
            now += wait;
            b.started(now);
        }
    }

    @Test
    void aRunOfAStableMinuteStartsTheSequenceOver() {
        final RestartBackoff b = RestartBackoff.standard();
        b.started(0);
        assertEquals(1_000, b.exited(10));
        b.started(1_010);
        assertEquals(2_000, b.exited(1_020));
        b.started(3_020);
        assertEquals(4_000, b.exited(3_020 + 59_999), "just short of a minute is not stable yet");
        b.started(100_000);
        assertEquals(1_000, b.exited(160_000), "a full minute of running resets the back-off");
    }

    @Test
    void anExitNoStartWasSeenForStillBacksOff() {
        // A machine the supervisor adopted (started before it) and that exits: no start time, no reset.
        final RestartBackoff b = new RestartBackoff(100, 400, 1_000);
        assertEquals(100, b.exited(5_000));
        assertEquals(200, b.exited(5_100));
    }

    @Test
    void nonsensicalSettingsAreRefusedNamingThem() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new RestartBackoff(2_000, 1_000, 60_000));
        assertEquals("restart back-off needs 0 < initial <= max and stable > 0, got initial 2000 ms, max 1000 ms,"
            + " stable 60000 ms", e.getMessage());
    }
}
