package io.pragh.bench.extension;

import io.pragh.bench.shard.ShardPlacement;
import io.pragh.keys.Placement;
import io.pragh.server.config.ConfigNode;
import io.pragh.server.config.PlacementConfig;
import io.pragh.server.extension.ClientOperations;
import io.pragh.server.extension.ServerExtension;
import io.pragh.store.Mutators;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bench extension ({@code extensions: [bench]}): what the traversal benchmark needs of server processes and a
 * user's server must not offer. It adds the benchmark's operations to the client protocol ({@link BenchProtocol}:
 * capped edge inserts, counting traversals, the shard baseline's tracking and moves), the {@link CappedAppend}
 * mutator, and placement kind {@code shards} ({@link ShardPlacement}, {@code shardsPerMachine} per machine, 1 to
 * {@value #MAX_SHARDS_PER_MACHINE}). The benchmark's process clusters name it in their cluster file; a server whose
 * file does not refuses these operations.
 *
 * <pre>{@code
 * extensions: [bench]
 * placement: {kind: shards, shardsPerMachine: 100}
 * }</pre>
 */
public final class BenchExtension implements ServerExtension {
    /** The name cluster files enable it by. */
    public static final String NAME = "bench";
    /** The placement kind it supplies. */
    public static final String SHARDS = "shards";
    public static final int MAX_SHARDS_PER_MACHINE = 10_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<Byte, String> operations() {
        Map<Byte, String> ops = new LinkedHashMap<>();
        for (byte op : BenchProtocol.codes()) {
            ops.put(op, BenchProtocol.name(op));
        }
        return ops;
    }

    @Override
    public void registerMutators(Mutators mutators) {
        mutators.register(CappedAppend.ID, new CappedAppend());
    }

    @Override
    public Placement placement(PlacementConfig placement, int machines) {
        if (!SHARDS.equals(placement.kind())) {
            return null;
        }
        ConfigNode settings = placement.settings().allow("shardsPerMachine");
        return new ShardPlacement(machines, settings.integer("shardsPerMachine",
            ShardPlacement.DEFAULT_SHARDS_PER_MACHINE, 1, MAX_SHARDS_PER_MACHINE));
    }

    @Override
    public ClientOperations open(Host host) {
        return new BenchOperations(host);
    }
}
