package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** A replica message holds whole records of one type, as many as a holder's round renews at one host. */
class ReplicaMessagesTest {
    @Test
    void aMessageOfWholeRecordsOfOneTypePassesAndAnyOtherIsNamed() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[(ReplicaMessages.MAX_RECORDS + 1) * ReplicaMessages.REPLICATE_BYTES]);
        for (int i = 0; i <= ReplicaMessages.MAX_RECORDS; i++) {
            ReplicaMessages.putReplicate(b, i * ReplicaMessages.REPLICATE_BYTES, 10 + i, 0x100, 0x200, 7, 1_000, 24);
        }
        int r = ReplicaMessages.REPLICATE_BYTES;
        assertNull(ReplicaMessages.check(b, 0, r));
        assertNull(ReplicaMessages.check(b, r, 3 * r), "three records from any offset");
        assertNull(ReplicaMessages.check(b, 0, ReplicaMessages.MAX_RECORDS * r));
        assertEquals("REPLICATE of 57 bytes (expected 1 to 512 records of 56 bytes)", ReplicaMessages.check(b, 0, r + 1));
        assertEquals("REPLICATE of 28728 bytes (expected 1 to 512 records of 56 bytes)",
            ReplicaMessages.check(b, 0, (ReplicaMessages.MAX_RECORDS + 1) * r));
        ReplicaMessages.putAnswer(b, 2 * r, 12, 0x200, 1_000, true);
        assertEquals("REPLICATE whose record at byte 112 is of type 6", ReplicaMessages.check(b, 0, 3 * r));

        UnsafeBuffer answers = new UnsafeBuffer(new byte[2 * ReplicaMessages.ANSWER_BYTES]);
        ReplicaMessages.putAnswer(answers, 0, 10, 0x200, 1_000, true);
        ReplicaMessages.putAnswer(answers, ReplicaMessages.ANSWER_BYTES, 11, 0x300, 1_000, false);
        assertNull(ReplicaMessages.check(answers, 0, 2 * ReplicaMessages.ANSWER_BYTES));
        assertEquals(1, answers.getByte(ReplicaMessages.GRANTED));
        assertEquals(0, answers.getByte(ReplicaMessages.ANSWER_BYTES + ReplicaMessages.GRANTED));
        assertEquals("REPLICA_ANSWER of 31 bytes (expected 1 to 512 records of 32 bytes)",
            ReplicaMessages.check(answers, 0, 31));
    }
}
