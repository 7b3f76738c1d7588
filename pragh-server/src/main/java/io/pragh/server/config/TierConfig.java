package io.pragh.server.config;

import io.pragh.tier.TieringConfig;
import java.time.Duration;

/**
 * The far-memory tier of a cluster file, its {@code tiering} section: the bytes of values each compute machine keeps
 * in its local memory ({@code localBudgetPerMachine}; absent: tiering off), the share of warm bytes kept local, the
 * accesses per round from which a value is hot, and the time between rounds. A budget needs at least one machine with
 * {@code role: memory} to spill to (checked by {@link ClusterConfig#parse}).
 *
 * <pre>{@code
 * tiering: {localBudgetPerMachine: 64MiB, warmKeptLocal: 50%, hotAccesses: 8, interval: 1s}
 * TieringConfig c = config.tiering().toSettings();
 * }</pre>
 *
 * @param settings the core's settings; {@link TieringConfig#bounded()} false when the section gives no budget
 */
public record TierConfig(TieringConfig settings) {
    public static final TierConfig OFF = new TierConfig(TieringConfig.defaults());

    /** Whether a compute machine runs tiering rounds (a budget is set). */
    public boolean enabled() {
        return settings.bounded();
    }

    static TierConfig read(ConfigNode n) {
        n.allow("localBudgetPerMachine", "warmKeptLocal", "hotAccesses", "interval");
        TieringConfig d = TieringConfig.defaults();
        long budget = n.bytes("localBudgetPerMachine", TieringConfig.UNBOUNDED, 0, Long.MAX_VALUE);
        double warm = n.percent("warmKeptLocal", d.warmKeptLocal(), 0, 1);
        long hot = n.longInteger("hotAccesses", d.hotAccesses(), 1, Integer.MAX_VALUE);
        // Rounds in a server process run on their own thread: manual rounds (0) are for embedded tests only.
        Duration interval = n.duration("interval", Duration.ofMillis(d.intervalMillis()), Duration.ofMillis(10),
            Duration.ofHours(1));
        return new TierConfig(new TieringConfig(budget, warm, hot, interval.toMillis()));
    }
}
