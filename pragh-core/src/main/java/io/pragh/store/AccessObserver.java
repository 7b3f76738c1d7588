package io.pragh.store;

/**
 * Sees every successful GET of one machine: which key, its home, and where its value was read. Installed on demand
 * by whoever needs per-key statistics the location cache cannot give: the monitor's local-access table (deferred
 * migration) and the shard baseline's full access tracking. Runs on the reading thread, so it must be cheap and
 * must not allocate.
 */
@FunctionalInterface
public interface AccessObserver {
    void onAccess(long key, int home, int host);

    /**
     * Reads, plainly, the memory {@link #onAccess} of {@code key} will start at, and returns what it read (meaning
     * nothing): a batch GET touches every key's memory before its lookups so that the CPU fetches it in parallel
     * ({@code BatchGet}). Nothing by default.
     */
    default long touch(long key) {
        return 0;
    }
}
