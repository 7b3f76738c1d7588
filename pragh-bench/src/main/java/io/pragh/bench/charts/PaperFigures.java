package io.pragh.bench.charts;

import io.pragh.bench.traversal.Mode;
import java.util.EnumMap;
import java.util.Map;

/**
 * The Pragh paper's section 6 figures for the traversal benchmark (8 machines, RMAT26, Zipf 0.99, scope 2^10,
 * fanout 100, 95% two-hop GETs / 5% PUTs), as listed in shared/papers/README.md, to chart beside ours. Throughput
 * is kept as a ratio to Orig, because absolute rates of an 8-node RDMA cluster and of this machine do not compare.
 * Split's figures are the paper's approximations ("about 2x Orig", "about 43%").
 */
public final class PaperFigures {
    private PaperFigures() {
    }

    /** Throughput in queries per second, as reported. */
    public static Map<Mode, Double> throughputQps() {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        m.put(Mode.ORIG, 123_000.0);
        m.put(Mode.SHARD, 171_000.0);
        m.put(Mode.SPLIT, 246_000.0);
        m.put(Mode.SPLIT_CACHE, 2_352_000.0);
        m.put(Mode.IDEAL, 3_248_000.0);
        return m;
    }

    /** Remote access rate, as a fraction. */
    public static Map<Mode, Double> remoteAccessRate() {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        m.put(Mode.ORIG, 0.862);
        m.put(Mode.SHARD, 0.644);
        m.put(Mode.SPLIT, 0.43);
        m.put(Mode.SPLIT_CACHE, 0.020);
        m.put(Mode.IDEAL, 0.0);
        return m;
    }
}
