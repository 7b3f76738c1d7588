package io.pragh.gremlin.distributed;

import io.pragh.gremlin.server.StartService;
import io.pragh.gremlin.server.StepPolicy;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.routing")}: one map with this machine's id, how many {@code V(id)} traversals it forwarded
 * to their home machine ({@code forwarded}), ran as the home ({@code ranAtHome}) and ran here though homed elsewhere
 * because its forwarding bound was reached ({@code ranHereAtCapacity}), plus the forwards in flight now
 * ({@code forwardsInFlight}) and that bound ({@code maxForwards}). It starts a traversal of its own (no
 * {@code V(id)}), so it is answered by the machine it is sent to.
 *
 * <p>Example: {@code Map m = g.call("pragh.routing").next();
 * // {machine=1, forwarded=3, ranAtHome=5, ranHereAtCapacity=0, forwardsInFlight=0, maxForwards=16}}
 */
final class RoutingService extends StartService<Map<String, Long>> {
    static final String NAME = StepPolicy.ROUTING_SERVICE; // admitted by the step policy under this name

    private final HomeRouter router;

    RoutingService(final HomeRouter router) {
        super(NAME);
        this.router = router;
    }

    @Override
    protected List<Map<String, Long>> answers() {
        return List.of(router.counters());
    }
}
