package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.pragh.fabric.Region;

/**
 * Receives the frames {@link FrameDecoder} validated, one call per frame, with variable data passed as a range of
 * the input buffer (valid only during the call) so that decoding allocates nothing. Each side overrides the frames
 * it expects; the defaults reject a frame out of turn, which closes the connection.
 */
interface FrameVisitor {
    /** A short name for the side this visitor plays, used in "unexpected frame" errors: "client", "server". */
    String role();

    default FrameException unexpected(byte type) {
        return new FrameException("unexpected " + Frame.typeName(type) + " frame sent to a " + role());
    }

    default void onHello(int machine, ByteBuf in, int nonceIndex) {
        throw unexpected(Frame.HELLO);
    }

    default void onAuth(int client, int server, ByteBuf in, int nonceIndex, int macIndex) {
        throw unexpected(Frame.AUTH);
    }

    default void onAuthOk(ByteBuf in, int macIndex) {
        throw unexpected(Frame.AUTH_OK);
    }

    /** The peer is closing the connection and says why. */
    default void onClose(String reason) {
        throw unexpected(Frame.CLOSE);
    }

    default void onRead(int id, Region region, long offset, int length) {
        throw unexpected(Frame.READ);
    }

    default void onWrite(int id, boolean signalled, Region region, long offset, ByteBuf in, int index, int length) {
        throw unexpected(Frame.WRITE);
    }

    default void onCas(int id, Region region, long offset, long expected, long desired) {
        throw unexpected(Frame.CAS);
    }

    /** Returns false when the message cannot be taken now; the decoder then stops and offers it again later. */
    default boolean onMessage(ByteBuf in, int index, int length) {
        throw unexpected(Frame.MESSAGE);
    }

    default void onReadOk(int id, ByteBuf in, int index, int length) {
        throw unexpected(Frame.READ_OK);
    }

    default void onWriteOk(int id) {
        throw unexpected(Frame.WRITE_OK);
    }

    default void onCasOk(int id, long witnessed) {
        throw unexpected(Frame.CAS_OK);
    }

    default void onError(int id, boolean retryable, String reason) {
        throw unexpected(Frame.ERROR);
    }
}
