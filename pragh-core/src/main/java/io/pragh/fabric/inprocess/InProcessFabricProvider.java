package io.pragh.fabric.inprocess;

import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricSpec;

/**
 * Provides the {@link InProcessFabric}: always available, for machines that share this JVM, with the emulated
 * remote latency the spec's {@link RemoteLatency} setting gives (the fabric's default without one).
 *
 * <pre>{@code
 * Fabric f = new InProcessFabricProvider().create(FabricSpec.embedded(4)
 *     .withSetting(InProcessFabricProvider.RemoteLatency.class, new InProcessFabricProvider.RemoteLatency(500)));
 * }</pre>
 */
public final class InProcessFabricProvider implements FabricProvider {
    /** The emulated latency of each remote one-sided operation, in nanoseconds (0: none). */
    public record RemoteLatency(long nanos) {
        public RemoteLatency {
            if (nanos < 0) {
                throw new IllegalArgumentException("remote latency " + nanos + " ns (must be >= 0)");
            }
        }
    }

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
        return new InProcessFabric(spec.machineCount(), spec.setting(RemoteLatency.class).map(RemoteLatency::nanos)
            .orElse(InProcessFabric.DEFAULT_REMOTE_LATENCY_NS));
    }
}
