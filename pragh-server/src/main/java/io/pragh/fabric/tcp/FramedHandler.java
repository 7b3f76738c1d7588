package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.io.IOException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel that speaks frames: gathers received bytes until frames are complete, decodes and validates them
 * ({@link FrameDecoder}) straight into this object's {@link FrameVisitor} callbacks, flushes the answers once per
 * read, and closes the connection with a log line and a CLOSE frame naming the reason when the peer breaks the
 * protocol. Nothing a peer sends can throw past this class: the worst it gets is a closed connection.
 *
 * <p>Everything here runs on the channel's event loop, so the state needs no synchronisation.
 */
abstract class FramedHandler extends ChannelInboundHandlerAdapter implements FrameVisitor {
    protected static final Logger LOG = LoggerFactory.getLogger(FramedHandler.class.getPackageName());

    protected ChannelHandlerContext ctx;
    private ByteBuf cumulation;
    /** Small until the peer proved the cluster secret; raised by {@link #authenticated}. */
    private int maxFrame = Frame.HANDSHAKE_MAX_FRAME;
    private boolean paused;
    private boolean closing;
    private String closeReason;
    private boolean tlsFailureLogged;

    /** "machine 2 at /127.0.0.1:40000": who is on the other side, for logs and errors. */
    abstract String describePeer();

    /** The connection is gone; {@code reason} says why as well as this side knows. */
    abstract void onDisconnected(String reason);

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    /** Lifts the frame limit once the peer is known to hold the cluster secret. */
    protected void authenticated(int maxFrameAfterHandshake) {
        this.maxFrame = maxFrameAfterHandshake;
    }

    protected boolean isClosing() {
        return closing;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            context.fireChannelRead(msg);
            return;
        }
        if (closing) {
            in.release();
            return;
        }
        cumulate(in);
        if (!paused) {
            decodeAvailable();
        }
    }

    private void cumulate(ByteBuf in) {
        if (cumulation == null) {
            cumulation = in;
            return;
        }
        if (cumulation.maxWritableBytes() < in.readableBytes()) {
            ByteBuf bigger = ctx.alloc().buffer(cumulation.readableBytes() + in.readableBytes());
            bigger.writeBytes(cumulation);
            cumulation.release();
            cumulation = bigger;
        }
        cumulation.writeBytes(in);
        in.release();
    }

    private void decodeAvailable() {
        try {
            while (cumulation != null && !paused && !closing) {
                int r = FrameDecoder.decodeOne(cumulation, maxFrame, this);
                if (r == FrameDecoder.NEED_MORE) {
                    break;
                }
                if (r == FrameDecoder.REFUSED) {
                    paused = true;
                    ctx.channel().config().setAutoRead(false);
                    onPaused();
                    break;
                }
            }
        } catch (FrameException e) {
            protocolViolation(e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("fabric connection with " + describePeer() + " failed on a frame", e);
            closeWithReason("internal error handling a frame: " + e);
        }
        if (cumulation != null) {
            if (!cumulation.isReadable()) {
                cumulation.release();
                cumulation = null;
            } else if (cumulation.readerIndex() > cumulation.capacity() / 2) {
                cumulation.discardSomeReadBytes();
            }
        }
    }

    /** A frame was refused ({@link FrameVisitor#onMessage} returned false) and reading stopped; arrange a resume. */
    void onPaused() {
    }

    /** Event loop: takes up decoding where a refused frame stopped it, and reading from the socket again. */
    void resume() {
        if (!paused || closing) {
            return;
        }
        paused = false;
        decodeAvailable();
        if (!paused && !closing) {
            ctx.channel().config().setAutoRead(true);
        }
        ctx.flush();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext context) {
        context.flush();
    }

    /** Logs the violation and closes the connection, telling the peer why. */
    protected void protocolViolation(String reason) {
        LOG.warn("closing fabric connection with " + describePeer() + ": " + reason);
        closeWithReason(reason);
    }

    /** Sends a CLOSE frame naming the reason, then closes; later frames from the peer are ignored. */
    protected void closeWithReason(String reason) {
        if (closing) {
            return;
        }
        closing = true;
        closeReason = reason;
        byte[] r = FrameWriter.reasonBytes(reason);
        ByteBuf buf = ctx.alloc().buffer(FrameWriter.closeSize(r));
        FrameWriter.close(buf, r);
        ctx.writeAndFlush(buf).addListener(ChannelFutureListener.CLOSE);
    }

    /** Closes without a goodbye (the peer already said why, or this side is shutting down). */
    protected void closeQuietly(String reason) {
        if (!closing) {
            closing = true;
            closeReason = reason;
        }
        ctx.close();
    }

    /** A failed TLS handshake (no certificate, one from another CA, plaintext on a TLS port) closes with one line. */
    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            tlsFailed(done.cause());
            return;
        }
        context.fireUserEventTriggered(evt);
    }

    private void tlsFailed(Throwable cause) {
        String reason = "TLS failed: " + cause.getMessage();
        if (!tlsFailureLogged) {
            tlsFailureLogged = true;
            LOG.warn("closing fabric connection with " + describePeer() + ": " + reason);
            onTlsFailed(reason, cause instanceof SslHandshakeTimeoutException);
        }
        closeQuietly(reason);
    }

    /**
     * The TLS layer refused the peer or was refused by it; nothing else can pass on this connection. Only a handshake
     * that ran out of time may pass on another attempt (a busy peer); a refused certificate stays refused.
     */
    void onTlsFailed(String reason, boolean retryable) {
    }

    private static SSLException sslCause(Throwable t) {
        for (int depth = 0; t != null && depth < 4; depth++, t = t.getCause()) {
            if (t instanceof SSLException ssl) {
                return ssl;
            }
        }
        return null;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        SSLException ssl = sslCause(cause);
        if (ssl != null) {
            // With TLS 1.3 the connecting side learns that its certificate was refused only from an alert after its
            // own handshake finished, so a TLS failure can arrive here as well as through the handshake event.
            tlsFailed(ssl);
        } else if (cause instanceof IOException) {
            // A peer that went away mid-stream; the disconnect itself is reported by onDisconnected.
            closeQuietly("connection lost: " + cause.getMessage());
        } else {
            LOG.warn("fabric connection with " + describePeer() + " failed", cause);
            closeQuietly("connection failed: " + cause);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        releaseCumulation();
        onDisconnected(closeReason != null ? closeReason : "connection closed by " + describePeer());
        context.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        releaseCumulation();
    }

    private void releaseCumulation() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }
}
