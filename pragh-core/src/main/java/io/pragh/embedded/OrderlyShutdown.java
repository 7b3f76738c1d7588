package io.pragh.embedded;

import io.pragh.fabric.Fabric;
import io.pragh.store.MachineStore;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The order in which an embedded cluster's machines stop, since a thread of one machine reads and writes the others'
 * memory: every machine refuses new operations; the fabrics close (operations they hold are let go and fail, their
 * threads are joined); every machine stops and joins its threads and waits for the operations still inside; only
 * then is any memory freed. A machine where something still ran after {@link MachineStore#CLOSE_PATIENCE_MILLIS}
 * keeps its memory (a leak, named in the log) rather than free it under a running thread.
 *
 * <pre>{@code
 * OrderlyShutdown.close(machines, fabrics);
 * }</pre>
 */
final class OrderlyShutdown {
    private static final Logger LOG = LoggerFactory.getLogger(OrderlyShutdown.class);

    private OrderlyShutdown() {
    }

    /**
     * Stops {@code machines} (null entries: never built) attached to {@code fabrics}, and frees their memory.
     *
     * @return whether every machine quiesced (and its memory was freed)
     */
    static boolean close(Machine[] machines, Fabric[] fabrics) {
        for (Machine m : machines) {
            if (m != null) {
                m.beginClose();
            }
        }
        // A fabric shared by several machines is closed once.
        Set<Fabric> closed = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Fabric f : fabrics) {
            if (f != null && closed.add(f)) {
                f.close();
            }
        }
        boolean quiet = true;
        for (Machine m : machines) {
            if (m != null) {
                quiet &= m.quiesce();
            }
        }
        if (!quiet) {
            LOG.warn("the cluster did not quiesce; its machines' memory stays allocated");
            return false;
        }
        for (Machine m : machines) {
            if (m != null) {
                m.close();
            }
        }
        return true;
    }
}
