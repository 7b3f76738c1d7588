package io.pragh.server.config;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where {@code LocalCluster} still finds {@link io.pragh.fabric.tcp.PrivateFiles}, which moved beside the TCP
 * fabric's secrets so that the fabric no longer reaches up into the configuration package (the two made a cycle).
 * Delete once LocalCluster imports the fabric's class.
 */
public final class PrivateFiles {
    private PrivateFiles() {
    }

    /** See {@link io.pragh.fabric.tcp.PrivateFiles#writeString}. */
    public static void writeString(Path file, String text) throws IOException {
        io.pragh.fabric.tcp.PrivateFiles.writeString(file, text);
    }
}
