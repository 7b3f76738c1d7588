package io.pragh.gremlin.distributed;

import io.pragh.gremlin.server.StepPolicy;
import org.apache.tinkerpop.gremlin.structure.service.Service;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

import java.util.List;
import java.util.Map;
import java.util.Set;

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
final class RoutingService implements Service.ServiceFactory<Object, Map<String, Long>>,
    Service<Object, Map<String, Long>> {
    static final String NAME = StepPolicy.ROUTING_SERVICE; // admitted by the step policy under this name

    private final HomeRouter router;

    RoutingService(final HomeRouter router) {
        this.router = router;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<Type> getSupportedTypes() {
        return Set.of(Type.Start);
    }

    @Override
    public Service<Object, Map<String, Long>> createService(final boolean isStart, final Map params) {
        if (!isStart) {
            throw new UnsupportedOperationException(NAME + " starts a traversal: g.call(\"" + NAME + "\")");
        }
        return this;
    }

    @Override
    public Type getType() {
        return Type.Start;
    }

    @Override
    public CloseableIterator<Map<String, Long>> execute(final ServiceCallContext ctx, final Map params) {
        return CloseableIterator.of(List.of(router.counters()).iterator());
    }

    @Override
    public void close() {
    }
}
