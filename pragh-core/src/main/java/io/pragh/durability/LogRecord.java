package io.pragh.durability;

import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Layout of one write-ahead log record: an applied update of one key, with the version it produced.
 * <pre>
 *  | body length: int | CRC32C of body: int | key: long | version: long | mutator: int | argLen: int | arg |
 * </pre>
 * The CRC lets recovery tell a torn tail (a crash mid-write) from a complete record.
 */
public final class LogRecord {
    public static final int PREFIX = 8;
    static final int KEY = 0;
    static final int VERSION = 8;
    static final int MUTATOR = 16;
    static final int ARG_LENGTH = 20;
    static final int ARG = 24;
    /** Largest record recovery accepts; anything larger in a length field is corruption. */
    public static final int MAX_BODY = ARG + (64 << 20);

    private LogRecord() {
    }

    public static int bodyLength(int argLen) {
        return ARG + argLen;
    }

    /** Encodes a record at {@code at}; returns its total length. */
    public static int write(MutableDirectBuffer dst, int at, long key, long version, int mutator, DirectBuffer arg,
                            int argOff, int argLen) {
        int body = at + PREFIX;
        dst.putLong(body + KEY, key);
        dst.putLong(body + VERSION, version);
        dst.putInt(body + MUTATOR, mutator);
        dst.putInt(body + ARG_LENGTH, argLen);
        if (argLen > 0) {
            dst.putBytes(body + ARG, arg, argOff, argLen);
        }
        int length = bodyLength(argLen);
        dst.putInt(at, length);
        dst.putInt(at + 4, crc(dst, body, length));
        return PREFIX + length;
    }

    static int crc(DirectBuffer b, int at, int length) {
        CRC32C crc = new CRC32C();
        byte[] bytes = new byte[length];
        b.getBytes(at, bytes);
        crc.update(bytes);
        return (int) crc.getValue();
    }
}
