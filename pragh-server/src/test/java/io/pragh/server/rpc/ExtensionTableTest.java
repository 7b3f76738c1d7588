package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.server.extension.ClientOperations;
import io.pragh.server.extension.ServerExtension;
import io.pragh.server.extension.ServerExtensions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Extensions must keep to the extensions' codes and to codes of their own: a port refuses to open otherwise. */
class ExtensionTableTest {
    private static ServerExtension declaring(String name, byte op) {
        return new ServerExtension() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Map<Byte, String> operations() {
                return Map.of(op, name.toUpperCase(java.util.Locale.ROOT));
            }

            @Override
            public ClientOperations open(Host host) {
                return (request, length) -> CompletableFuture.completedFuture(new byte[0]);
            }
        };
    }

    private static String refusal(ServerExtension... extensions) {
        return assertThrows(IllegalStateException.class,
            () -> new ExtensionTable(ServerExtensions.of(List.of(extensions)), null)).getMessage();
    }

    @Test
    void aCodeOutsideTheRangeOrClaimedTwiceIsRefusedNamingTheExtensions() {
        String outside = refusal(declaring("a", ClientProtocol.GET));
        assertTrue(outside.contains("'a' declares operation 3 (A), outside the extensions' codes 32..63"), outside);
        String twice = refusal(declaring("a", (byte) 40), declaring("b", (byte) 40));
        assertTrue(twice.contains("'a' and 'b' both declare operation 40 (A, B)"), twice);
    }
}
