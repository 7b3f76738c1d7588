package io.pragh.fabric.verbs;

import io.pragh.fabric.FabricException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for a connection or a region table, with the fabric's timeout and its error type. */
final class Await {
    private Await() {
    }

    /** The future's value; a timeout, interruption or failure becomes a FabricException that names {@code what}. */
    static <T> T result(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new FabricException(what + " timed out after " + timeout.toMillis() + " ms", true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FabricException(what + " was interrupted", true, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof FabricException f) {
                throw new FabricException(what + " failed: " + f.getMessage(), f.retryable(), f);
            }
            throw new FabricException(what + " failed: " + cause, true, cause);
        }
    }
}
