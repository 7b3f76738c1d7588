package io.pragh.server.config;

import io.pragh.keys.Placement;
import io.pragh.shard.ShardPlacement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How keys are placed on machines: {@code hash} (the default: a key's home is fixed by its hash, what Pragh's split
 * migration, durability and crash recovery assume) or {@code shards}, the shard baseline of paper section 2.3
 * (vertices hashed into {@code shardsPerMachine x machines} shards and a shard-to-machine table that shard moves
 * rewrite, see {@code io.pragh.shard}).
 *
 * <p>Shard placement is the benchmark's baseline and nothing more: each machine holds its shard table in memory only,
 * and moves copy records without logging them, so a restarted machine would start from the initial table (and its
 * log would replay shards it gave away) while its peers route by the moved one; crash recovery restores a value at
 * the key's home as the table said when the key was written. Therefore {@code kind: shards} is refused together
 * with a {@code membership} section (nothing recovers from a crash while the cluster runs), and a machine with shard
 * placement refuses to start from a data directory that holds records of an earlier run.
 *
 * <pre>{@code
 * placement: {kind: shards, shardsPerMachine: 100}
 * Placement p = config.placement().build(config.machineCount());
 * }</pre>
 *
 * @param kind             hash or shards
 * @param shardsPerMachine shards per machine with {@code kind: shards} (1..10000)
 */
public record PlacementConfig(Kind kind, int shardsPerMachine) {
    /** Hash placement or the shard baseline's table. */
    public enum Kind {
        HASH,
        SHARDS
    }

    public static final int MAX_SHARDS_PER_MACHINE = 10_000;
    public static final PlacementConfig DEFAULT = new PlacementConfig(Kind.HASH,
        ShardPlacement.DEFAULT_SHARDS_PER_MACHINE);

    private static final Map<String, Kind> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("hash", Kind.HASH);
        KINDS.put("shards", Kind.SHARDS);
    }

    public boolean shards() {
        return kind == Kind.SHARDS;
    }

    /** A fresh placement for {@code machines} machines: every machine builds its own (a shard table is per machine). */
    public Placement build(int machines) {
        return shards() ? new ShardPlacement(machines, shardsPerMachine) : Placement.hashed(machines);
    }

    static PlacementConfig read(ConfigNode n) {
        n.allow("kind", "shardsPerMachine");
        Kind kind = n.choice("kind", DEFAULT.kind, KINDS);
        if (kind == Kind.HASH && n.has("shardsPerMachine")) {
            throw n.error("shardsPerMachine", "only shard placement has shards (set kind: shards, or remove this key)");
        }
        int perMachine = n.integer("shardsPerMachine", DEFAULT.shardsPerMachine, 1, MAX_SHARDS_PER_MACHINE);
        return new PlacementConfig(kind, perMachine);
    }
}
