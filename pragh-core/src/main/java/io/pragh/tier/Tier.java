package io.pragh.tier;

/**
 * Where a value belongs by how often its machine reads it (the monitor's decayed counts, see
 * {@code io.pragh.monitor.Monitor#heldAccesses}): hot values stay local, cold ones are the first to go to far
 * memory, warm ones go after them.
 *
 * <pre>{@code
 * Tier t = Tier.of(monitor.heldAccesses(key), config.hotAccesses());
 * }</pre>
 */
public enum Tier {
    HOT, WARM, COLD;

    /** Hot at {@code hotAccesses} or more, cold when not read at all, warm in between. */
    public static Tier of(long accesses, long hotAccesses) {
        if (accesses >= hotAccesses) {
            return HOT;
        }
        return accesses == 0 ? COLD : WARM;
    }
}
