package io.pragh.gremlin.distributed;

import io.pragh.fabric.Endpoint;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.structure.util.TemporaryException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.LongToIntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * How the router of a degraded cluster words what went wrong: a home the fabric cannot reach is refused before any
 * driver is made, a home's own retryable answer stays retryable, and a forward that got no answer names the home's
 * Gremlin address; every one of them without a Java class name or a stack.
 */
class HomeRouterTest {
    private static final List<InetSocketAddress> GREMLIN = List.of(InetSocketAddress.createUnresolved("10.0.0.1", 8182),
        InetSocketAddress.createUnresolved("10.0.0.2", 8182), InetSocketAddress.createUnresolved("10.0.0.3", 8182));
    private static final List<String> FABRIC = List.of("10.0.0.1:7400", "10.0.0.2:7400", "10.0.0.3:7400");

    /** A fabric endpoint of machine 0 that reaches every machine but {@code down}. */
    private static Endpoint reachingAllBut(final int down) {
        return (Endpoint) Proxy.newProxyInstance(Endpoint.class.getClassLoader(), new Class<?>[] {Endpoint.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "isReachable" -> (int) args[0] != down;
                case "machine" -> 0;
                case "machineCount" -> 3;
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    private static HomeRouter router(final int down) {
        return new HomeRouter(0, (LongToIntFunction) vid -> (int) (vid % 3), GREMLIN, 4,
            new PeerReachability(0, reachingAllBut(down), FABRIC));
    }

    @Test
    void aHomeTheFabricCannotReachIsRefusedAtOnceNamingIt() {
        try (HomeRouter r = router(2)) {
            final MachineUnavailableException e = assertThrows(MachineUnavailableException.class,
                () -> r.connectionTo(2));
            assertEquals("machine 2 (10.0.0.3:7400) is unreachable; retry once it is back (the traversal starts at"
                + " vertices it is home to)", e.getMessage());
            assertInstanceOf(TemporaryException.class, e, "Gremlin Server answers SERVER_ERROR_TEMPORARY for it");
            assertEquals(0, e.getStackTrace().length, "no stack for Gremlin Server to send");
        }
    }

    @Test
    void theHomesOwnAnswerIsPassedOnRetryableOnlyWhenItSaidSo() {
        try (HomeRouter r = router(-1)) {
            final RuntimeException temporary = r.forwardFailed(1, new IllegalStateException(new CompletionException(
                new ResponseException(ResponseStatusCode.SERVER_ERROR_TEMPORARY, "machine 2 (x) is unreachable"))));
            assertInstanceOf(MachineUnavailableException.class, temporary);
            assertEquals("machine 2 (x) is unreachable", temporary.getMessage());
            final RuntimeException plain = r.forwardFailed(1, new IllegalStateException(
                new ResponseException(ResponseStatusCode.SERVER_ERROR, "no such property")));
            assertEquals(IllegalStateException.class, plain.getClass());
            assertEquals("no such property", plain.getMessage(), "the home's words, without our wrapping");
        }
    }

    @Test
    void aForwardWithoutAnAnswerNamesTheHomesGremlinAddress() {
        try (HomeRouter r = router(-1)) {
            final RuntimeException e = r.forwardFailed(2, new IllegalStateException(
                new java.util.concurrent.TimeoutException("Timed-out waiting for connection")));
            assertInstanceOf(MachineUnavailableException.class, e);
            assertEquals("machine 2 (Gremlin 10.0.0.3:8182) did not answer a traversal forwarded to it as the home of"
                + " its start vertices; retry once it is back", e.getMessage());
        }
    }
}
