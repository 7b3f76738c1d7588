package io.pragh.store;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Wire layout of the two messages of read replicas (docs/replicas.md), beside {@link StoreMessages}'s.
 *
 * <pre>
 *  REPLICATE:      type | pad 7 | key: long | source: long (the record copied, as the home names it)
 *                  | replica: long (the copy, as the home would name it) | versionWord: long | stamp: long
 *                  | length: int | pad 4
 *  REPLICA_ANSWER: type | granted: byte | pad 6 | key: long | replica: long | stamp: long (echoed)
 * </pre>
 * The stamp is the requester's clock when it sent the request: a grant's lease counts from the request it answers,
 * never from a later one, so a late grant cannot stretch a lease its host already stopped counting on.
 */
final class ReplicaMessages {
    static final byte REPLICATE = 5;
    static final byte ANSWER = 6;

    static final int KEY = 8;
    static final int SOURCE = 16;
    static final int REPLICA = 24;
    static final int VERSION_WORD = 32;
    static final int STAMP = 40;
    static final int LENGTH = 48;
    static final int REPLICATE_BYTES = 56;

    static final int GRANTED = 1;
    static final int ANSWER_REPLICA = 16;
    static final int ANSWER_STAMP = 24;
    static final int ANSWER_BYTES = 32;

    private ReplicaMessages() {
    }

    static UnsafeBuffer replicate(long key, long source, long replica, long versionWord, long stamp, int length) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[REPLICATE_BYTES]);
        b.putByte(0, REPLICATE);
        b.putLong(KEY, key);
        b.putLong(SOURCE, source);
        b.putLong(REPLICA, replica);
        b.putLong(VERSION_WORD, versionWord);
        b.putLong(STAMP, stamp);
        b.putInt(LENGTH, length);
        return b;
    }

    static UnsafeBuffer answer(long key, long replica, long stamp, boolean granted) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[ANSWER_BYTES]);
        b.putByte(0, ANSWER);
        b.putByte(GRANTED, (byte) (granted ? 1 : 0));
        b.putLong(KEY, key);
        b.putLong(ANSWER_REPLICA, replica);
        b.putLong(ANSWER_STAMP, stamp);
        return b;
    }

    /** Why a received message of these types is malformed, or null. */
    static String check(DirectBuffer msg, int off, int len) {
        int type = msg.getByte(off);
        int expected = type == REPLICATE ? REPLICATE_BYTES : ANSWER_BYTES;
        return len == expected ? null : (type == REPLICATE ? "REPLICATE" : "REPLICA_ANSWER") + " of " + len
            + " bytes (expected " + expected + ")";
    }
}
