package io.pragh.server.rpc;

import io.pragh.fabric.FabricException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One answer of the client port: a status of {@link ClientProtocol} and its body. {@link #failure} is the one place
 * that turns a failed request into an answer, so that the protocol's own operations and the extensions' are refused
 * alike.
 *
 * <pre>{@code
 * CompletableFuture<Reply> r = work.thenApply(Reply::ok).exceptionally(t -> Reply.failure(t, machineId, 5_000));
 * }</pre>
 */
record Reply(byte status, byte[] body) {
    /** Under ClientServer's name: the client port logs as one. */
    private static final Logger LOG = LoggerFactory.getLogger(ClientServer.class);

    static final Reply OK = new Reply(ClientProtocol.OK, new byte[0]);
    static final Reply ABSENT = new Reply(ClientProtocol.ABSENT, new byte[0]);

    static Reply ok(byte[] body) {
        return new Reply(ClientProtocol.OK, body);
    }

    static Reply retry(String why) {
        return new Reply(ClientProtocol.RETRY, ClientProtocol.text(why));
    }

    static Reply error(String why) {
        return new Reply(ClientProtocol.ERROR, ClientProtocol.text(why));
    }

    /**
     * RETRY for what may pass (a peer down, a timeout, a stale address seen repeatedly), ERROR for the rest; a failure
     * nobody foresaw is logged with its stack on {@code machine}, and the client gets words, never a class name.
     */
    static Reply failure(Throwable t, int machine, long timeoutMillis) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof FabricException f) {
            return f.retryable() ? retry(t.getMessage()) : error(t.getMessage());
        }
        if (t instanceof TimeoutException) {
            return retry("machine " + machine + ": not completed within " + timeoutMillis + " ms (a machine it needs"
                + " may be down)");
        }
        if (t instanceof io.pragh.LimitExceededException || t instanceof IllegalArgumentException) {
            return error(String.valueOf(t.getMessage()));
        }
        if (t instanceof io.pragh.PraghException) {
            // Stale addresses seen repeatedly, a refused update: states a recovery or a retry resolves.
            return retry(t.getMessage());
        }
        LOG.warn("machine " + machine + " failed a client request", t);
        return error("machine " + machine + " failed the request: " + (t.getMessage() == null
            ? "an internal error (see its log)" : t.getMessage()));
    }
}
