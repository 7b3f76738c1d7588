package io.pragh.store;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
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
 *
 * <p>A message carries one record or several of one type back to back, each laid out as above: a holder's renewals
 * of the replicas one host granted go in one REPLICATE message per upkeep round ({@link #MAX_RECORDS} at most), and
 * the host answers them in one REPLICA_ANSWER message, in the same order. One message each way per replica and half
 * lease made the fabric's inboxes 3.5 us of CPU per traversal query at scale 20 (230,000 renewals in 30 s).
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
    /** Records one message carries at most (28 KiB of REPLICATE). */
    static final int MAX_RECORDS = 512;

    private ReplicaMessages() {
    }

    static UnsafeBuffer replicate(long key, long source, long replica, long versionWord, long stamp, int length) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[REPLICATE_BYTES]);
        putReplicate(b, 0, key, source, replica, versionWord, stamp, length);
        return b;
    }

    /** Writes a REPLICATE record at {@code at}. */
    static void putReplicate(MutableDirectBuffer b, int at, long key, long source, long replica, long versionWord,
                             long stamp, int length) {
        b.putByte(at, REPLICATE);
        b.setMemory(at + 1, KEY - 1, (byte) 0);
        b.putLong(at + KEY, key);
        b.putLong(at + SOURCE, source);
        b.putLong(at + REPLICA, replica);
        b.putLong(at + VERSION_WORD, versionWord);
        b.putLong(at + STAMP, stamp);
        b.putInt(at + LENGTH, length);
        b.putInt(at + LENGTH + 4, 0);
    }

    /** Writes a REPLICA_ANSWER record at {@code at}. */
    static void putAnswer(MutableDirectBuffer b, int at, long key, long replica, long stamp, boolean granted) {
        b.putByte(at, ANSWER);
        b.putByte(at + GRANTED, (byte) (granted ? 1 : 0));
        b.setMemory(at + GRANTED + 1, KEY - GRANTED - 1, (byte) 0);
        b.putLong(at + KEY, key);
        b.putLong(at + ANSWER_REPLICA, replica);
        b.putLong(at + ANSWER_STAMP, stamp);
    }

    /** Bytes of one record of the type of {@code msg}'s first. */
    static int recordBytes(DirectBuffer msg, int off) {
        return msg.getByte(off) == REPLICATE ? REPLICATE_BYTES : ANSWER_BYTES;
    }

    /**
     * Why a received message of these types is malformed, or null: it must hold one to {@link #MAX_RECORDS} whole
     * records, all of its first record's type.
     */
    static String check(DirectBuffer msg, int off, int len) {
        int type = msg.getByte(off);
        String name = type == REPLICATE ? "REPLICATE" : "REPLICA_ANSWER";
        int record = recordBytes(msg, off);
        if (len < record || len % record != 0 || len / record > MAX_RECORDS) {
            return name + " of " + len + " bytes (expected 1 to " + MAX_RECORDS + " records of " + record
                + " bytes)";
        }
        for (int at = record; at < len; at += record) {
            if (msg.getByte(off + at) != type) {
                return name + " whose record at byte " + at + " is of type " + msg.getByte(off + at);
            }
        }
        return null;
    }
}
