package io.pragh.server.extension;

import io.pragh.keys.Placement;
import io.pragh.server.config.ConfigNode;
import io.pragh.server.config.PlacementConfig;
import io.pragh.server.rpc.ClientProtocol;
import io.pragh.store.Mutators;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;

/**
 * A server extension for tests, listed in this module's test {@code META-INF/services} so that a server finds it
 * as it finds any: ECHO answers its operands reversed, ECHO_PUT sets a value through the server's update path, and
 * placement kind {@code pinned} homes every key on one machine ({@code machine: N}).
 */
public final class EchoExtension implements ServerExtension {
    static final byte ECHO = ClientProtocol.FIRST_EXTENSION_OP;
    static final byte ECHO_PUT = ClientProtocol.FIRST_EXTENSION_OP + 1;

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public Map<Byte, String> operations() {
        return Map.of(ECHO, "ECHO", ECHO_PUT, "ECHO_PUT");
    }

    @Override
    public Placement placement(PlacementConfig placement, int machines) {
        if (!placement.kind().equals("pinned")) {
            return null;
        }
        ConfigNode settings = placement.settings().allow("machine");
        int home = settings.integer("machine", 0, 0, machines - 1);
        return key -> home;
    }

    @Override
    public ClientOperations open(Host host) {
        return (DirectBuffer request, int length) -> {
            if (request.getByte(0) == ECHO_PUT) {
                if (length < 9) {
                    throw new IllegalArgumentException("ECHO_PUT of " + length + " bytes: needs a key");
                }
                byte[] value = new byte[length - 9];
                request.getBytes(9, value);
                return host.update(request.getLong(1), Mutators.SET, value).thenApply(v -> new byte[0]);
            }
            byte[] reversed = new byte[length - 1];
            for (int i = 0; i < reversed.length; i++) {
                reversed[i] = request.getByte(length - 1 - i);
            }
            return CompletableFuture.completedFuture(reversed);
        };
    }
}
