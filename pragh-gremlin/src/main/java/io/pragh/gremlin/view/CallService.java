package io.pragh.gremlin.view;

import org.apache.tinkerpop.gremlin.structure.service.Service;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Gremlin service that starts a traversal, with parameters, {@code g.call(name, [key: value, ...])}: TinkerPop's
 * factory-and-service boilerplate, written once for the view, k-core, stats and routing services. Used in the
 * middle of a traversal it is refused, naming how to call it. Parameter helpers name the service and the parameter
 * when one is missing or of the wrong type.
 *
 * <p>Example: {@code g.call("pragh.view", Map.of("op", "members", "name", "paloAlto")).next()}
 *
 * @param <R> what each answer is
 */
public abstract class CallService<R> implements Service.ServiceFactory<Object, R>, Service<Object, R> {
    private final String name;

    protected CallService(final String name) {
        this.name = name;
    }

    /** The answers of one call with {@code params} (empty when the call had none). */
    protected abstract List<R> answers(Map<?, ?> params);

    /**
     * The answers of one call as they come: by default {@link #answers}, all at once; a service that streams (its
     * answers arrive over time, as events do) returns an iterator whose {@code hasNext} waits for the next one.
     */
    protected java.util.Iterator<R> stream(final Map<?, ?> params) {
        return answers(params).iterator();
    }

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
            throw new UnsupportedOperationException(name + " starts a traversal: g.call(\"" + name + "\", [...])");
        }
        return this;
    }

    @Override
    public final Type getType() {
        return Type.Start;
    }

    @Override
    public final CloseableIterator<R> execute(final ServiceCallContext ctx, final Map params) {
        return CloseableIterator.of(stream(params == null ? Map.of() : params));
    }

    @Override
    public void close() {
    }

    protected final String string(final Map<?, ?> params, final String key) {
        final Object v = params.get(key);
        if (!(v instanceof String) || ((String) v).isEmpty()) {
            throw new IllegalArgumentException(name + " needs parameter '" + key + "' (a string); got " + v);
        }
        return (String) v;
    }

    protected final String optionalString(final Map<?, ?> params, final String key) {
        return params.get(key) == null ? null : string(params, key);
    }

    protected final long number(final Map<?, ?> params, final String key) {
        final Object v = params.get(key);
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException(name + " needs parameter '" + key + "' (a number); got " + v);
        }
        return ((Number) v).longValue();
    }

    protected final long[] ids(final Map<?, ?> params, final String key) {
        final Object v = params.get(key);
        if (!(v instanceof List)) {
            throw new IllegalArgumentException(name + " needs parameter '" + key + "' (a list of vertex ids); got " + v);
        }
        final List<?> list = (List<?>) v;
        final long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            final Object id = list.get(i);
            if (!(id instanceof Number)) {
                throw new IllegalArgumentException(name + " parameter '" + key + "' holds " + id + ", not a vertex id");
            }
            out[i] = ((Number) id).longValue();
        }
        return out;
    }
}
