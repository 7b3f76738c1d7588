package io.pragh.gremlin.server;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.tinkerpop.gremlin.structure.service.Service;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

/**
 * A Gremlin service that only starts a traversal, {@code g.call(name)}, and answers with what {@link #answers} reads
 * at the time of the call: TinkerPop's factory-and-service boilerplate, written once for {@link StatsService} and
 * the cluster machines' routing counters. Used in the middle of a traversal it is refused, naming how to call it.
 *
 * <p>Example: {@code new StartService<Long>("my.count") { protected List<Long> answers() { return List.of(n); } }}
 *
 * @param <R> what each answer is (a map of counters, for ours)
 */
public abstract class StartService<R> implements Service.ServiceFactory<Object, R>, Service<Object, R> {
    private final String name;

    protected StartService(final String name) {
        this.name = name;
    }

    /** The answers of one call, read now. */
    protected abstract List<R> answers();

    @Override
    public final String getName() {
        return name;
    }

    @Override
    public final Set<Type> getSupportedTypes() {
        return Set.of(Type.Start);
    }

    @Override
    public final Service<Object, R> createService(final boolean isStart, final Map params) {
        if (!isStart) {
            throw new UnsupportedOperationException(name + " starts a traversal: g.call(\"" + name + "\")");
        }
        return this;
    }

    @Override
    public final Type getType() {
        return Type.Start;
    }

    @Override
    public final CloseableIterator<R> execute(final ServiceCallContext ctx, final Map params) {
        return CloseableIterator.of(answers().iterator());
    }

    @Override
    public void close() {
    }
}
