package io.pragh.fabric;

/**
 * Every machine attached, as {@link FabricConformanceTest} wants a fabric: one fabric for all machines (in-process,
 * fault, verbs) or one per machine already attached (TCP). Closing closes the fabric or fabrics.
 *
 * <pre>{@code
 * protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) {
 *     return AttachedCluster.attach(new InProcessFabric(memories.length, 0), memories, handlers);
 * }
 * }</pre>
 */
public final class AttachedCluster implements FabricConformanceTest.FabricCluster {
    private final Endpoint[] endpoints;
    private final Runnable close;

    private AttachedCluster(Endpoint[] endpoints, Runnable close) {
        this.endpoints = endpoints;
        this.close = close;
    }

    /** Attaches machine i with memories[i] and handlers[i]; on failure closes the fabric and rethrows. */
    public static AttachedCluster attach(Fabric fabric, MachineMemory[] memories, MessageHandler[] handlers) {
        Endpoint[] endpoints = new Endpoint[memories.length];
        try {
            for (int m = 0; m < memories.length; m++) {
                endpoints[m] = fabric.attach(m, memories[m], handlers[m]);
            }
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
        return new AttachedCluster(endpoints, fabric::close);
    }

    /** Machines attached already (endpoints[i] is machine i's); {@code close} closes what they run on. */
    public static AttachedCluster of(Endpoint[] endpoints, Runnable close) {
        return new AttachedCluster(endpoints.clone(), close);
    }

    @Override
    public Endpoint endpoint(int machine) {
        return endpoints[machine];
    }

    @Override
    public void close() {
        close.run();
    }
}
