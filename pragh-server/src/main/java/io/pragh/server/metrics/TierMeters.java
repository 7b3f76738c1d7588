package io.pragh.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pragh.tier.Tier;
import io.pragh.tier.TierBytes;
import io.pragh.tier.Tiering;
import java.util.function.ToLongFunction;

/**
 * The far-memory tier's meters: {@code pragh.tier.bytes} per compute machine, tier ({@code hot}, {@code warm},
 * {@code cold}) and place ({@code local}, {@code far}), as the tier's last round left them, plus the values it moved
 * out and back and the moves that failed.
 *
 * <pre>{@code
 * TierMeters.bind(registry, cluster.tiering(), cluster.computeMachineCount());
 * // pragh_tier_bytes{machine="0",tier="cold",place="far"} 1.2E7
 * }</pre>
 */
public final class TierMeters {
    private TierMeters() {
    }

    public static void bind(MeterRegistry registry, Tiering tiering, int computeMachines) {
        for (int m = 0; m < computeMachines; m++) {
            bytes(registry, tiering, m, m);
        }
        moves(registry, tiering);
    }

    /**
     * The meters of a server process's tier, which runs over its own machine only: {@code machine} tags its bytes.
     *
     * <pre>{@code
     * TierMeters.bindMachine(registry, serverTiering.tiering(), 1);   // pragh_tier_bytes{machine="1",...}
     * }</pre>
     */
    public static void bindMachine(MeterRegistry registry, Tiering tiering, int machine) {
        bytes(registry, tiering, 0, machine);
        moves(registry, tiering);
    }

    private static void bytes(MeterRegistry registry, Tiering tiering, int index, int machine) {
        Tags tags = Tags.of("machine", Integer.toString(machine));
        for (Tier tier : Tier.values()) {
            gauge(registry, tiering, tags.and("tier", name(tier), "place", "local"), b -> b.local(tier), index);
            gauge(registry, tiering, tags.and("tier", name(tier), "place", "far"), b -> b.far(tier), index);
        }
    }

    private static void moves(MeterRegistry registry, Tiering tiering) {
        Gauge.builder("pragh.tier.moved.out", tiering, Tiering::demoted)
            .description("Values the tier moved to memory nodes").register(registry);
        Gauge.builder("pragh.tier.moved.back", tiering, Tiering::promoted)
            .description("Values the tier brought back from memory nodes").register(registry);
        Gauge.builder("pragh.tier.moves.failed", tiering, Tiering::failed)
            .description("Tier moves that failed or found no memory node with room").register(registry);
    }

    private static void gauge(MeterRegistry registry, Tiering tiering, Tags tags, ToLongFunction<TierBytes> part,
                              int machine) {
        Gauge.builder("pragh.tier.bytes", tiering, t -> part.applyAsLong(t.bytes(machine)))
            .description("Bytes of values by tier and place after the tier's last round").baseUnit("bytes").tags(tags)
            .register(registry);
    }

    private static String name(Tier tier) {
        return tier.name().toLowerCase(java.util.Locale.ROOT);
    }
}
