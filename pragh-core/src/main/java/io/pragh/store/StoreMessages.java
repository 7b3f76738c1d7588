package io.pragh.store;

import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Wire layout of the store's two-sided messages. The first byte of every message is its type; types below
 * {@link #FIRST_EXTENSION_TYPE} are the store's, the rest are routed to handlers other components register
 * (monitor reports, migration approvals, shipped traversals).
 *
 * <pre>
 *  UPDATE: type | pad 3 | origin: int | request: long | key: long | mutator: int | hops: int | argLen: int | arg
 *  ACK:    type | pad 3 | status: int (0 ok, 1 failed, 2 retryable) | request: long | messageLen: int | message
 *  PRUNE:  type | pad 7 | key: long | word: long (the tombstone the DELETE installed)
 *  LOG:    type | pad 3 | origin: int | request: long | key: long | version: long | mutator: int | argLen: int
 *          | published: long | publishedLength: int | pad 4 | arg
 * </pre>
 * LOG carries an update applied on a value's host to the key's home, whose log makes it durable, then clears the
 * pending bit of the record the update published on the host (published: its address there, {@link
 * io.pragh.address.Address#NONE} for a delete), and then acknowledges the origin.
 */
public final class StoreMessages {
    public static final byte UPDATE = 1;
    public static final byte ACK = 2;
    public static final byte PRUNE = 3;
    public static final byte LOG = 4;
    public static final int FIRST_EXTENSION_TYPE = 16;

    static final int UPDATE_ORIGIN = 4;
    static final int UPDATE_REQUEST = 8;
    static final int UPDATE_KEY = 16;
    static final int UPDATE_MUTATOR = 24;
    static final int UPDATE_HOPS = 28;
    static final int UPDATE_ARG_LENGTH = 32;
    static final int UPDATE_ARG = 36;

    static final int ACK_STATUS = 4;
    static final int ACK_REQUEST = 8;
    static final int ACK_MESSAGE_LENGTH = 16;
    static final int ACK_MESSAGE = 20;

    static final int LOG_ORIGIN = 4;
    static final int LOG_REQUEST = 8;
    static final int LOG_KEY = 16;
    static final int LOG_VERSION = 24;
    static final int LOG_MUTATOR = 32;
    static final int LOG_ARG_LENGTH = 36;
    static final int LOG_PUBLISHED = 40;
    static final int LOG_PUBLISHED_LENGTH = 48;
    static final int LOG_ARG = 56;

    static final int PRUNE_KEY = 8;
    static final int PRUNE_WORD = 16;
    static final int PRUNE_LENGTH = 24;

    private StoreMessages() {
    }

    static UnsafeBuffer update(int origin, long request, long key, int mutator, int hops, DirectBuffer arg, int argOff,
                               int argLen) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[UPDATE_ARG + argLen]);
        b.putByte(0, UPDATE);
        b.putInt(UPDATE_ORIGIN, origin);
        b.putLong(UPDATE_REQUEST, request);
        b.putLong(UPDATE_KEY, key);
        b.putInt(UPDATE_MUTATOR, mutator);
        b.putInt(UPDATE_HOPS, hops);
        b.putInt(UPDATE_ARG_LENGTH, argLen);
        if (argLen > 0) {
            b.putBytes(UPDATE_ARG, arg, argOff, argLen);
        }
        return b;
    }

    /** ACK status: the update took effect (and is durable where the cluster is durable). */
    static final int ACK_OK = 0;
    /** ACK status: the update failed for good (the message says why). */
    static final int ACK_FAILED = 1;
    /** ACK status: the update did not take effect because a machine it needed is unreachable; it may be retried. */
    static final int ACK_RETRYABLE = 2;

    static UnsafeBuffer ack(long request, int status, String error) {
        byte[] text = error == null ? new byte[0] : error.getBytes(StandardCharsets.UTF_8);
        UnsafeBuffer b = new UnsafeBuffer(new byte[ACK_MESSAGE + text.length]);
        b.putByte(0, ACK);
        b.putInt(ACK_STATUS, status);
        b.putLong(ACK_REQUEST, request);
        b.putInt(ACK_MESSAGE_LENGTH, text.length);
        b.putBytes(ACK_MESSAGE, text);
        return b;
    }

    static UnsafeBuffer log(int origin, long request, long key, long version, int mutator, DirectBuffer arg,
                            int argOff, int argLen, long published, int publishedLength) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[LOG_ARG + argLen]);
        b.putByte(0, LOG);
        b.putInt(LOG_ORIGIN, origin);
        b.putLong(LOG_REQUEST, request);
        b.putLong(LOG_KEY, key);
        b.putLong(LOG_VERSION, version);
        b.putInt(LOG_MUTATOR, mutator);
        b.putInt(LOG_ARG_LENGTH, argLen);
        b.putLong(LOG_PUBLISHED, published);
        b.putInt(LOG_PUBLISHED_LENGTH, publishedLength);
        if (argLen > 0) {
            b.putBytes(LOG_ARG, arg, argOff, argLen);
        }
        return b;
    }

    static UnsafeBuffer prune(long key, long tombstone) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[PRUNE_LENGTH]);
        b.putByte(0, PRUNE);
        b.putLong(PRUNE_KEY, key);
        b.putLong(PRUNE_WORD, tombstone);
        return b;
    }

    /** Checks a received UPDATE's lengths before anything reads it; returns why it is malformed, or null. */
    static String checkUpdate(DirectBuffer msg, int off, int len, int machines) {
        return checkCarrier("UPDATE", msg, off, len, UPDATE_ARG, UPDATE_ARG_LENGTH, UPDATE_ORIGIN, machines);
    }

    static String checkLog(DirectBuffer msg, int off, int len, int machines) {
        return checkCarrier("LOG", msg, off, len, LOG_ARG, LOG_ARG_LENGTH, LOG_ORIGIN, machines);
    }

    /** UPDATE and LOG both carry an origin and a length-prefixed argument after a fixed header. */
    private static String checkCarrier(String type, DirectBuffer msg, int off, int len, int header, int argLengthAt,
                                       int originAt, int machines) {
        if (len < header) {
            return type + " of " + len + " bytes is shorter than its " + header + "-byte header";
        }
        int argLen = msg.getInt(off + argLengthAt);
        if (argLen < 0 || argLen != len - header) {
            return type + " declares a " + argLen + "-byte argument but carries " + (len - header);
        }
        int origin = msg.getInt(off + originAt);
        if (origin < 0 || origin >= machines) {
            return type + " names origin machine " + origin + " outside 0.." + (machines - 1);
        }
        return null;
    }

    static String checkAck(DirectBuffer msg, int off, int len) {
        if (len < ACK_MESSAGE) {
            return "ACK of " + len + " bytes is shorter than its " + ACK_MESSAGE + "-byte header";
        }
        int textLen = msg.getInt(off + ACK_MESSAGE_LENGTH);
        if (textLen < 0 || textLen != len - ACK_MESSAGE) {
            return "ACK declares a " + textLen + "-byte message but carries " + (len - ACK_MESSAGE);
        }
        int status = msg.getInt(off + ACK_STATUS);
        if (status < ACK_OK || status > ACK_RETRYABLE) {
            return "ACK has unknown status " + status;
        }
        return null;
    }

    static String ackText(DirectBuffer msg, int off) {
        int n = msg.getInt(off + ACK_MESSAGE_LENGTH);
        byte[] text = new byte[n];
        msg.getBytes(off + ACK_MESSAGE, text);
        return new String(text, StandardCharsets.UTF_8);
    }
}
