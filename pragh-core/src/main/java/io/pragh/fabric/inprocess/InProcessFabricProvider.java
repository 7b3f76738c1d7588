package io.pragh.fabric.inprocess;

import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricSpec;

/**
 * Provides the {@link InProcessFabric}: always available, for machines that share this JVM, with the default
 * emulated remote latency.
 *
 * <pre>{@code
 * Fabric f = new InProcessFabricProvider().create(FabricSpec.embedded(4));
 * }</pre>
 */
public final class InProcessFabricProvider implements FabricProvider {
    @Override
    public FabricKind kind() {
        return FabricKind.IN_PROCESS;
    }

    @Override
    public Availability availability() {
        return Availability.available("every machine in this JVM");
    }

    @Override
    public Fabric create(FabricSpec spec) {
        if (!spec.hostsEveryMachine()) {
            throw new IllegalArgumentException("the in-process fabric connects machines of one JVM only; the spec "
                + "has this process host machine " + spec.machine() + " alone");
        }
        return new InProcessFabric(spec.machineCount(), InProcessFabric.DEFAULT_REMOTE_LATENCY_NS);
    }
}
