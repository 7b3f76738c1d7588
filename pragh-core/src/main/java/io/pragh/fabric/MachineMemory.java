package io.pragh.fabric;

import io.pragh.memory.ChunkedRegion;
import java.util.Objects;

/**
 * The registered memory of one machine: what a fabric exposes to peers' one-sided operations.
 *
 * <pre>{@code
 * MachineMemory mem = new MachineMemory(keys, values, reclaim);
 * Endpoint ep = fabric.attach(0, mem, handler);
 * }</pre>
 */
public record MachineMemory(ChunkedRegion keys, ChunkedRegion values, ChunkedRegion reclaim) {
    public MachineMemory {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(reclaim, "reclaim");
    }

    public ChunkedRegion region(Region region) {
        return switch (region) {
            case KEYS -> keys;
            case VALUES -> values;
            case RECLAIM -> reclaim;
        };
    }
}
