package io.pragh.server.extension;

import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;

/**
 * One machine's side of an extension's client-protocol operations: it serves each request whose operation code the
 * extension declared. Requests arrive one at a time per connection, on the connection's event loop: work that reads
 * or writes the store goes to the machine's workers ({@code Machine.submit}), never runs in {@link #serve} itself.
 *
 * <pre>{@code
 * ClientOperations ops = (request, length) -> {
 *     if (length != 9) {
 *         throw new IllegalArgumentException("FOO of " + length + " bytes (expected 9)");
 *     }
 *     long key = request.getLong(1);
 *     return machine.submit(() -> encode(machine.get(key)));
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ClientOperations {
    /**
     * Serves one request, {@code length} bytes of which the first is the operation code; the future's value is the
     * body of the OK answer. A malformed or refused request is an {@link IllegalArgumentException} naming the fault
     * (thrown or as the future's failure: the client gets ERROR with its message); a failure that may pass (a peer
     * down, a timeout, an {@code io.pragh.PraghException}) gets RETRY, as for the protocol's own operations.
     */
    CompletableFuture<byte[]> serve(DirectBuffer request, int length);
}
