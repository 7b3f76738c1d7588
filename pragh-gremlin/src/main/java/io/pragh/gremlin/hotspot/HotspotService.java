package io.pragh.gremlin.hotspot;

import io.pragh.gremlin.view.CallService;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.hotspot", [op: ..., ...])}: view-driven hotspot migration from Gremlin. Ops:
 * {@code watch} ({@code view}, {@code readsPerSecond}), {@code unwatch} ({@code view}), {@code round} (runs one
 * now; answers a report map per watched view), {@code start} ({@code intervalMillis}: rounds by themselves),
 * {@code stop}, and {@code status} (the default: per watched view its threshold and its members per machine).
 * Only names and numbers come from the wire; the counting handler is the server's own.
 *
 * <p>Example: {@code g.call("pragh.hotspot", [op: "watch", view: "trending", readsPerSecond: 1000])}
 */
final class HotspotService extends CallService<Map<String, Object>> {
    static final String NAME = "pragh.hotspot";

    private final ViewHotspots hotspots;

    HotspotService(final ViewHotspots hotspots) {
        super(NAME);
        this.hotspots = hotspots;
    }

    @Override
    protected List<Map<String, Object>> answers(final Map<?, ?> params) {
        final String op = params.containsKey("op") ? string(params, "op") : "status";
        switch (op) {
            case "watch":
                hotspots.watch(string(params, "view"), threshold(params));
                return status();
            case "unwatch":
                hotspots.unwatch(string(params, "view"));
                return status();
            case "round":
                final List<Map<String, Object>> out = new ArrayList<>();
                hotspots.runRound().forEach(r -> out.add(r.toMap()));
                return out;
            case "start":
                hotspots.start(number(params, "intervalMillis"));
                return status();
            case "stop":
                hotspots.stop();
                return status();
            case "status":
                return status();
            default:
                throw new IllegalArgumentException(NAME + " has no op '" + op
                    + "': ops are watch, unwatch, round, start, stop, status");
        }
    }

    private double threshold(final Map<?, ?> params) {
        final Object v = params.get("readsPerSecond");
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException(NAME + " needs parameter 'readsPerSecond' (a number); got " + v);
        }
        return ((Number) v).doubleValue();
    }

    private List<Map<String, Object>> status() {
        final List<Map<String, Object>> out = new ArrayList<>();
        hotspots.watched().forEach((view, threshold) -> {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("view", view);
            m.put("readsPerSecond", threshold);
            m.put("running", hotspots.running());
            final List<Integer> hosts = new ArrayList<>();
            for (final int n : hotspots.membersByHost(view)) {
                hosts.add(n);
            }
            m.put("membersByMachine", hosts);
            out.add(m);
        });
        return out;
    }
}
