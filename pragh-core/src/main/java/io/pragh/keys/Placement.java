package io.pragh.keys;

/**
 * Where a key's home is: the machine that holds its slot in the key region and, until it migrates, its value.
 * Pragh needs no per-key metadata for this; the default is a hash of the vertex id. The shard-based baseline plugs
 * in a shard-to-machine table instead.
 *
 * <pre>{@code
 * Placement p = Placement.hashed(8);
 * int home = p.home(KeyLayout.key(42, 0, KeyLayout.OUT));
 * }</pre>
 */
@FunctionalInterface
public interface Placement {
    int home(long key);

    /** Hash of the vid modulo the machine count: every key of a vertex has the same home. */
    static Placement hashed(int machines) {
        if (machines < 1) {
            throw new IllegalArgumentException("machines must be >= 1, got " + machines);
        }
        return key -> (int) Long.remainderUnsigned(Hashing.mix(KeyLayout.vid(key)), machines);
    }

    /**
     * Hash placement over some machines only: the homes are {@code homes[hash % homes.length]}, so machines left out
     * (memory nodes, which host values but run no queries) home no key. With {@code homes = 0..n-1} it is
     * {@link #hashed}{@code (n)}.
     *
     * <pre>{@code
     * Placement p = Placement.hashedOver(new int[] {0, 1});   // machines 2 and 3 are memory nodes
     * }</pre>
     */
    static Placement hashedOver(int[] homes) {
        if (homes.length < 1) {
            throw new IllegalArgumentException("hash placement needs at least one home machine, got none");
        }
        int[] copy = homes.clone();
        return key -> copy[(int) Long.remainderUnsigned(Hashing.mix(KeyLayout.vid(key)), copy.length)];
    }
}
