package io.pragh.keys;

/** The hash functions placement and the key region share, so every machine computes the same answers. */
public final class Hashing {
    private Hashing() {
    }

    /** MurmurHash3's 64-bit finaliser: every input bit affects every output bit. */
    public static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    /** Bucket hash of a whole key; salted so it is independent of the placement hash of its vid. */
    public static long bucketHash(long key) {
        return mix(key ^ 0x9e3779b97f4a7c15L);
    }
}
