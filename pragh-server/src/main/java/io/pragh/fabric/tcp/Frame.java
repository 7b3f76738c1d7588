package io.pragh.fabric.tcp;

/**
 * The wire format of the TCP fabric. Every frame is a 4-byte big-endian length (of what follows it), a type byte
 * and a body whose size the type fixes or, for the variable ones, states in a field that must agree with the length.
 *
 * <pre>
 *  HELLO    server -> client  magic:int version:short machine:short nonce:16
 *  AUTH     client -> server  magic:int version:short client:short server:short nonce:16 mac:32
 *  AUTH_OK  server -> client  mac:32
 *  CLOSE    either            reasonLength:short reason:utf8          (sent before closing on a violation)
 *  READ     client -> server  id:int region:byte offset:long length:int
 *  WRITE    client -> server  id:int flags:byte region:byte offset:long length:int data
 *  CAS      client -> server  id:int region:byte offset:long expected:long desired:long
 *  MESSAGE  client -> server  data                                   (the sender is the authenticated peer)
 *  READ_OK  server -> client  id:int data
 *  WRITE_OK server -> client  id:int                                  (only for signalled writes)
 *  CAS_OK   server -> client  id:int witnessed:long
 *  ERROR    server -> client  id:int retryable:byte reasonLength:short reason:utf8
 * </pre>
 */
final class Frame {
    static final int LENGTH_FIELD = 4;
    /** "PRGH": a peer that does not start with it is not a Pragh machine. */
    static final int MAGIC = 0x50524748;
    static final int VERSION = 1;
    static final int NONCE_BYTES = 16;
    static final int MAC_BYTES = 32;
    static final int MAX_REASON_BYTES = 1024;

    static final byte HELLO = 1;
    static final byte AUTH = 2;
    static final byte AUTH_OK = 3;
    static final byte CLOSE = 4;
    static final byte READ = 16;
    static final byte WRITE = 17;
    static final byte CAS = 18;
    static final byte MESSAGE = 19;
    static final byte READ_OK = 32;
    static final byte WRITE_OK = 33;
    static final byte CAS_OK = 34;
    static final byte ERROR = 35;

    static final int TYPE_BYTES = 1;
    static final int HELLO_BODY = 4 + 2 + 2 + NONCE_BYTES;
    static final int AUTH_BODY = 4 + 2 + 2 + 2 + NONCE_BYTES + MAC_BYTES;
    static final int AUTH_OK_BODY = MAC_BYTES;
    static final int CLOSE_HEADER = 2;
    static final int READ_BODY = 4 + 1 + 8 + 4;
    static final int WRITE_HEADER = 4 + 1 + 1 + 8 + 4;
    static final int CAS_BODY = 4 + 1 + 8 + 8 + 8;
    static final int READ_OK_HEADER = 4;
    static final int WRITE_OK_BODY = 4;
    static final int CAS_OK_BODY = 4 + 8;
    static final int ERROR_HEADER = 4 + 1 + 2;

    static final int FLAG_SIGNALLED = 1;

    /** Largest frame either side accepts before the handshake completed: a peer must prove itself before it may
     * make us buffer anything big. */
    static final int HANDSHAKE_MAX_FRAME = TYPE_BYTES + Math.max(AUTH_BODY, Math.max(HELLO_BODY,
        ERROR_HEADER + MAX_REASON_BYTES));

    private Frame() {
    }

    /** The frame length (type byte included) that carries {@code payload} bytes of one-sided data or message. */
    static int maxFrameFor(int maxPayloadBytes, int maxMessageBytes) {
        long biggest = Math.max((long) TYPE_BYTES + WRITE_HEADER + maxPayloadBytes,
            (long) TYPE_BYTES + maxMessageBytes);
        return (int) Math.min(Integer.MAX_VALUE - LENGTH_FIELD, Math.max(biggest, HANDSHAKE_MAX_FRAME));
    }

    static String typeName(int type) {
        return switch (type) {
            case HELLO -> "HELLO";
            case AUTH -> "AUTH";
            case AUTH_OK -> "AUTH_OK";
            case CLOSE -> "CLOSE";
            case READ -> "READ";
            case WRITE -> "WRITE";
            case CAS -> "CAS";
            case MESSAGE -> "MESSAGE";
            case READ_OK -> "READ_OK";
            case WRITE_OK -> "WRITE_OK";
            case CAS_OK -> "CAS_OK";
            case ERROR -> "ERROR";
            default -> "unknown type " + type;
        };
    }
}
