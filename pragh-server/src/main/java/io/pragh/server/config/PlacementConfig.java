package io.pragh.server.config;

/**
 * How keys are placed on machines: {@code hash}, the only kind built in (a key's home is fixed by its hash, what
 * Pragh's split migration, durability and crash recovery assume), or a kind a server extension supplies, such as the
 * benchmark's shard baseline ({@code shards}, from pragh-bench). The section's other keys belong to that kind: its
 * extension reads them from {@link #settings} when the server starts.
 *
 * <p>Only hash placement keeps a key's home where crash recovery and the logs expect it; an extension's placement
 * may move homes while the cluster runs. Therefore any other kind needs an extension named under
 * {@code extensions}, is refused together with a {@code membership} section (nothing recovers from a crash while
 * the cluster runs), and a machine with it refuses to start from a data directory that holds records of an earlier
 * run.
 *
 * <pre>{@code
 * extensions: [bench]
 * placement: {kind: shards, shardsPerMachine: 100}
 * }</pre>
 *
 * @param kind     {@code hash}, or the name of an extension's placement kind
 * @param settings the section without {@code kind}: empty for hash, the kind's own keys otherwise
 */
public record PlacementConfig(String kind, ConfigNode settings) {
    /** The built-in kind. */
    public static final String HASH = "hash";

    public boolean isHash() {
        return HASH.equals(kind);
    }

    static PlacementConfig read(ConfigNode n) {
        String kind = n.only("kind").allow("kind").string("kind", HASH);
        ConfigNode settings = n.without("kind");
        if (HASH.equals(kind)) {
            // Hash placement has no keys of its own: a stray one is a typo or a leftover of another kind.
            for (String key : n.keys()) {
                if (!key.equals("kind")) {
                    throw n.error(key, "hash placement has no other keys (remove this key, or set kind to the"
                        + " placement that has it)");
                }
            }
        }
        return new PlacementConfig(kind, settings);
    }
}
