package io.pragh.gremlin.hotspot;

/**
 * What a hotspot round needs of the machines a view's values live on, whichever process runs them: the other
 * processes' read counts, where values are now, and moves that the migration policy knows of. {@link ViewHotspots}
 * runs the same round over an embedded cluster (every machine in this process, {@code EmbeddedMachines}) and over a
 * multi-process cluster (each process's Gremlin front end gives its own implementation, which reaches the other
 * machines through their client ports and hands moves to the coordinator).
 *
 * <p>Example: {@code ViewHotspots hotspots = ViewHotspots.of(events, machines);  // machines: a HotspotMachines}
 */
public interface HotspotMachines {
    /** Machines of the cluster (machine ids are 0 .. machineCount - 1). */
    int machineCount();

    /**
     * Null when this process runs the rounds (the embedded cluster's; the coordinator's process of a multi-process
     * cluster), else why not, naming the machine whose process does.
     */
    String roundsRunElsewhere();

    /**
     * The read counts of watched view {@code view} taken (and reset) in every other process: {@code machineCount}
     * reads per reading machine, then how many of them were remote, summed. A process that did not watch the view
     * yet starts counting its reads (answering none), so this also tells every process of a new watch; when the view
     * is no longer watched, they stop counting and answer none.
     */
    long[] takeOtherReads(String view);

    /** The machine holding the value of each of {@code keys[0 .. count)} now, -1 for a key with no value. */
    int[] hosts(long[] keys, int count);

    /**
     * Moves the value of each of {@code keys[0 .. count)} to machine {@code targets[i]} so that the migration policy
     * knows where it went, and waits for the moves (up to {@code patienceMillis}); returns how many values moved.
     */
    int move(long[] keys, int[] targets, int count, long patienceMillis);
}
