package io.pragh.rdma;

import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.RdmaDevices;
import java.util.Optional;

/**
 * Resolves {@code auto | verbs | tcp | in-process} to the fabric a machine will use. {@code auto} takes verbs when an
 * RDMA device with an active port exists, otherwise TCP for a multi-process server and the in-process fabric for an
 * embedded cluster. Asking for verbs without a usable device, or for the in-process fabric across processes, is an
 * error that says why, never a silent substitution.
 *
 * <pre>{@code
 * FabricChoice choice = FabricSelection.resolve(FabricKind.parse(flag), Deployment.MULTI_PROCESS);
 * Fabric fabric = switch (choice.kind()) { case VERBS -> ...; case TCP -> ...; default -> ...; };
 * }</pre>
 */
public final class FabricSelection {
    private static final System.Logger LOG = System.getLogger(FabricSelection.class.getName());

    private FabricSelection() {
    }

    /** Probes this host's devices, decides, and logs the decision. */
    public static FabricChoice resolve(FabricKind requested, Deployment deployment) {
        FabricChoice choice = choose(requested, deployment, RdmaDevices.probe());
        LOG.log(System.Logger.Level.INFO, "fabric {0} for {1}: {2}", requested.label(), deployment.description(),
            choice);
        return choice;
    }

    /** The decision itself, from a given probe: deterministic, so tests pin every branch. */
    public static FabricChoice choose(FabricKind requested, Deployment deployment, DeviceProbe probe) {
        Optional<RdmaDevice> device = probe.firstUsable();
        return switch (requested) {
            case AUTO -> device
                .map(d -> new FabricChoice(FabricKind.VERBS, "RDMA device " + d.name() + " has "
                    + d.activePorts() + " active port(s)"))
                .orElseGet(() -> fallback(deployment, probe));
            case VERBS -> device
                .map(d -> new FabricChoice(FabricKind.VERBS, "requested; RDMA device " + d.name()))
                .orElseThrow(() -> new IllegalStateException("fabric 'verbs' was requested but there is no usable "
                    + "RDMA device: " + probe.problem() + "; use 'auto' or 'tcp' on this host"));
            case TCP -> new FabricChoice(FabricKind.TCP, "requested");
            case IN_PROCESS -> {
                if (deployment == Deployment.MULTI_PROCESS) {
                    throw new IllegalStateException("fabric 'in-process' cannot connect machines in separate "
                        + "processes; use 'auto', 'tcp' or 'verbs' for a multi-process server");
                }
                yield new FabricChoice(FabricKind.IN_PROCESS, "requested");
            }
        };
    }

    private static FabricChoice fallback(Deployment deployment, DeviceProbe probe) {
        FabricKind kind = deployment == Deployment.MULTI_PROCESS ? FabricKind.TCP : FabricKind.IN_PROCESS;
        return new FabricChoice(kind, "no usable RDMA device: " + probe.problem());
    }
}
