package io.pragh.embedded;

import io.pragh.durability.PeerLoss;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.Placement;
import io.pragh.tier.MachineRole;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts one memory node of a durable embedded cluster, as its process dying and starting again would: the node
 * goes off the fabric (operations on it fail retryably), every other machine recovers from its lost memory
 * ({@link PeerLoss}: its values that lived there put back at their homes from the homes' logs, cache entries into it
 * dropped), and a new machine with new, empty regions takes the id. The far-memory tier pauses meanwhile and spills
 * to the new node from its next round. The old node's memory is freed only when the cluster closes: a thread that
 * looked it up just before the restart may still finish one operation on it. Refused, naming why, for a compute
 * machine, a cluster that is not durable, one whose automatic migration runs, and a fabric per machine.
 *
 * <pre>{@code
 * Machine fresh = restarts.restartMemoryNode(2);   // via EmbeddedCluster.restartMemoryNode
 * }</pre>
 */
final class MachineRestarts {
    private static final Logger LOG = LoggerFactory.getLogger(MachineRestarts.class);

    private final EmbeddedCluster.Builder builder;
    private final boolean pin;
    /** Machines replaced by a restart; guarded by this, closed with the cluster. */
    private final List<Machine> retired = new ArrayList<>();

    MachineRestarts(EmbeddedCluster.Builder builder, boolean pin) {
        this.builder = builder;
        this.pin = pin;
    }

    /**
     * Restarts memory node {@code id} of {@code cluster}, whose machine array is {@code machines} (the new machine
     * replaces the old one there); returns the new machine.
     */
    synchronized Machine restartMemoryNode(EmbeddedCluster cluster, Machine[] machines, int id) {
        if (cluster.role(id) != MachineRole.MEMORY) {
            throw new IllegalArgumentException("machine " + id + " is a compute machine; only a memory node (ids "
                + cluster.computeMachineCount() + ".." + (machines.length - 1) + ") can restart by itself");
        }
        if (builder.dataDirectory == null) {
            throw new IllegalStateException("memory node " + id + " cannot restart: the cluster is not durable "
                + "(Builder.durability), so the values that lived there could not be put back");
        }
        if (cluster.migrationControl() != null) {
            throw new IllegalStateException("memory node " + id + " cannot restart while automatic migration runs: "
                + "its monitor watches the old node's memory (build the cluster without automaticMigration)");
        }
        if (!(cluster.fabric(id) instanceof InProcessFabric fabric)) {
            throw new IllegalStateException("memory node " + id + " cannot restart on the " + cluster.fabric(id).name()
                + " fabric: only the in-process fabric detaches one machine");
        }
        if (cluster.tiering() == null) {
            return restart(cluster, machines, id, fabric);
        }
        Machine[] fresh = new Machine[1];
        // Between two rounds of the tier: none of its MIGRATEs to or from the node is in flight.
        cluster.tiering().replaceMemoryNode(id, () -> {
            fresh[0] = restart(cluster, machines, id, fabric);
            return fresh[0].store();
        });
        return fresh[0];
    }

    private Machine restart(EmbeddedCluster cluster, Machine[] machines, int id, InProcessFabric fabric) {
        Machine old = machines[id];
        old.beginClose();
        boolean quiet = fabric.detach(id);
        quiet &= old.quiesce();
        retired.add(old);
        if (!quiet) {
            LOG.warn("memory node {} did not quiesce before its restart; its old memory stays allocated", id);
        }
        // Recovered while the id is off the fabric: once the new node attaches, no survivor points into its memory.
        int restored = 0;
        for (int m = 0; m < machines.length; m++) {
            if (m != id) {
                restored += new PeerLoss(machines[m].store(), machines[m].durability()).recoverFrom(id);
            }
        }
        Placement placement = cluster.placement();
        machines[id] = MachineAssembly.assemble(builder, id, machines.length, fabric, placement, pin, true);
        LOG.info("memory node {} restarted; its machines put {} values back from their logs", id, restored);
        return machines[id];
    }

    /** Frees the memory of every machine a restart replaced; the cluster's own machines are quiet by now. */
    synchronized void closeRetired() {
        for (Machine m : retired) {
            m.close();
        }
        retired.clear();
    }
}
