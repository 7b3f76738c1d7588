package io.pragh.server.extension;

import io.pragh.embedded.Machine;
import io.pragh.keys.Placement;
import io.pragh.server.config.PlacementConfig;
import io.pragh.store.Mutators;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Operations a server adds to its client protocol only when its cluster file asks for them by name
 * ({@code extensions: [bench]}), with what they need: value mutators, and a placement kind of their own. A server
 * that does not name an extension does not know its operations: it refuses them like any operation it does not
 * serve. Implementations are listed in {@code META-INF/services/io.pragh.server.extension.ServerExtension} and need a
 * public no-argument constructor; every machine of a cluster must run the same extensions (a mutator runs wherever a
 * value lives, and a placement must agree on every machine).
 *
 * <pre>{@code
 * public final class EchoExtension implements ServerExtension {
 *     static final byte ECHO = ClientProtocol.FIRST_EXTENSION_OP;
 *     public String name() { return "echo"; }
 *     public Map<Byte, String> operations() { return Map.of(ECHO, "ECHO"); }
 *     public ClientOperations open(Host host) {
 *         return (request, length) -> CompletableFuture.completedFuture(new byte[] {request.getByte(length - 1)});
 *     }
 * }
 * }</pre>
 */
public interface ServerExtension {
    /** The name a cluster file enables it by, under {@code extensions}. */
    String name();

    /**
     * The client-protocol operations it serves, by code (each in {@code ClientProtocol.FIRST_EXTENSION_OP ..
     * LAST_EXTENSION_OP}, none another enabled extension serves), with the names errors call them by.
     */
    Map<Byte, String> operations();

    /** Registers the value mutators its operations name; called on every machine before the store exists. */
    default void registerMutators(Mutators mutators) {
    }

    /**
     * This machine's placement when the cluster file's {@code placement.kind} is one of this extension's, else null.
     * Reads and checks the kind's own keys from {@link PlacementConfig#settings} (a
     * {@code io.pragh.server.config.ConfigException} naming the key when one is wrong); called once per machine,
     * so a placement with a table gets a table of its own on each.
     */
    default Placement placement(PlacementConfig placement, int machines) {
        return null;
    }

    /** This machine's side of the extension's operations; called once per machine, when its client port opens. */
    ClientOperations open(Host host);

    /** What an extension's operations get of the machine that serves them. */
    interface Host {
        Machine machine();

        /**
         * An update as the client protocol runs its own (PUT, ADD_EDGE): it fails at once, retryably, when the key's
         * home or its value's host is unreachable, and after the server's request timeout. Call it from the
         * machine's workers or the connection's thread alike.
         */
        CompletableFuture<Void> update(long key, int mutator, byte[] argument);
    }
}
