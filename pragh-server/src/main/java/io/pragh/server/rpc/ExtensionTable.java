package io.pragh.server.rpc;

import io.pragh.server.extension.ClientOperations;
import io.pragh.server.extension.ServerExtension;
import io.pragh.server.extension.ServerExtensions;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;

/**
 * The extension operations one client port serves, by code ({@link ClientProtocol#FIRST_EXTENSION_OP} ..
 * {@link ClientProtocol#LAST_EXTENSION_OP}): built when the port opens from the extensions its machine runs, each
 * opened once for the machine. An operation of the range that no running extension declares is refused naming which
 * extensions run.
 *
 * <pre>{@code
 * ExtensionTable table = new ExtensionTable(extensions, host);
 * CompletableFuture<byte[]> body = table.serve(request, length);
 * }</pre>
 */
final class ExtensionTable {
    private static final int SIZE = ClientProtocol.LAST_EXTENSION_OP - ClientProtocol.FIRST_EXTENSION_OP + 1;

    private final ClientOperations[] byOp = new ClientOperations[SIZE];
    private final String[] names = new String[SIZE];
    private final String[] owners = new String[SIZE];
    private final String running;

    /** Fails naming the extension when one declares a code outside the range or one another extension declared. */
    ExtensionTable(ServerExtensions extensions, ServerExtension.Host host) {
        this.running = extensions.describe();
        for (ServerExtension e : extensions.all()) {
            for (Map.Entry<Byte, String> op : e.operations().entrySet()) {
                byte code = op.getKey();
                if (!ClientProtocol.isExtension(code)) {
                    throw new IllegalStateException("server extension '" + e.name() + "' declares operation "
                        + (code & 0xFF) + " (" + op.getValue() + "), outside the extensions' codes "
                        + ClientProtocol.FIRST_EXTENSION_OP + ".." + ClientProtocol.LAST_EXTENSION_OP);
                }
                int i = code - ClientProtocol.FIRST_EXTENSION_OP;
                if (owners[i] != null) {
                    throw new IllegalStateException("server extensions '" + owners[i] + "' and '" + e.name()
                        + "' both declare operation " + code + " (" + names[i] + ", " + op.getValue() + ")");
                }
                owners[i] = e.name();
                names[i] = op.getValue();
            }
            ClientOperations ops = e.open(host);
            for (byte code : e.operations().keySet()) {
                byOp[code - ClientProtocol.FIRST_EXTENSION_OP] = ops;
            }
        }
    }

    /** Serves a request of the extensions' range; one of an operation no running extension declares is refused. */
    CompletableFuture<byte[]> serve(DirectBuffer request, int length) {
        byte op = request.getByte(0);
        ClientOperations ops = byOp[op - ClientProtocol.FIRST_EXTENSION_OP];
        if (ops == null) {
            throw new IllegalArgumentException("operation " + op + " is a server extension's, and no extension this"
                + " server runs serves it (extensions: " + running + "); a cluster file enables extensions by name,"
                + " e.g. extensions: [bench] for the benchmark's shard and traversal operations");
        }
        return ops.serve(request, length);
    }
}
