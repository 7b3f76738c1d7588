package io.pragh.fabric;

import java.util.List;
import java.util.Objects;

/**
 * A fabric as a plug-in: each module that implements {@link Fabric} lists its provider in
 * {@code META-INF/services/io.pragh.fabric.FabricProvider}, and {@link FabricProviders} finds it with
 * {@link java.util.ServiceLoader}, so a server or a benchmark reaches every fabric on its class path without
 * depending on the module that holds it. A provider needs a public no-argument constructor and must be cheap to
 * construct: probing the host happens in {@link #availability()}, building in {@link #create}.
 *
 * <pre>{@code
 * public final class LoopbackFabricProvider implements FabricProvider {
 *     public FabricKind kind() { return FabricKind.IN_PROCESS; }
 *     public Availability availability() { return Availability.available("in this JVM"); }
 *     public Fabric create(FabricSpec spec) { return new InProcessFabric(spec.machineCount(), 0); }
 * }
 * }</pre>
 */
public interface FabricProvider {
    /** Whether a fabric can run on this host, and why (or why not) in words a user can act on. */
    record Availability(boolean available, String reason) {
        public Availability {
            Objects.requireNonNull(reason, "reason");
        }

        public static Availability available(String reason) {
            return new Availability(true, reason);
        }

        public static Availability unavailable(String reason) {
            return new Availability(false, reason);
        }
    }

    /** The concrete kind this provider builds; never {@link FabricKind#AUTO}. */
    FabricKind kind();

    /** The kind's label: "in-process", "tcp", "verbs". */
    default String name() {
        return kind().label();
    }

    /** Probes this host (devices, native libraries); may be called more than once. */
    Availability availability();

    /**
     * Whether the fabric's traffic between machines can run in TLS. A cluster that requires TLS is never given a
     * fabric that would carry its memory in the clear.
     */
    default boolean supportsTls() {
        return false;
    }

    /**
     * Builds a fabric for {@code spec}; the caller attaches its machine(s) and owns (closes) the result. Throws
     * IllegalArgumentException naming the part of the spec this fabric cannot use.
     */
    Fabric create(FabricSpec spec);

    /** What this provider found on this host, one fact a line, for {@code ./pragh doctor}; none by default. */
    default List<String> diagnostics() {
        return List.of();
    }
}
