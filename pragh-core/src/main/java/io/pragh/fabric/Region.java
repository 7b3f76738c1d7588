package io.pragh.fabric;

/** The memory regions a machine registers with its fabric; one-sided operations name one of them. */
public enum Region {
    /** The bucketed hash table of (key, address word) slots. */
    KEYS,
    /** Variable-sized value records. */
    VALUES,
    /** One reclaim ring per peer, written one-sidedly by that peer's migrator. */
    RECLAIM;

    private static final Region[] VALUES_ARRAY = values();

    public static Region of(int ordinal) {
        if (ordinal < 0 || ordinal >= VALUES_ARRAY.length) {
            throw new IllegalArgumentException("unknown region ordinal " + ordinal);
        }
        return VALUES_ARRAY[ordinal];
    }
}
