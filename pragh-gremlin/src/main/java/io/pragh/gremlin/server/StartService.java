package io.pragh.gremlin.server;

import java.util.List;
import java.util.Map;
import io.pragh.gremlin.view.CallService;

/**
 * A Gremlin service that only starts a traversal, {@code g.call(name)}, and answers with what {@link #answers} reads
 * at the time of the call: parameters are ignored; the boilerplate is
 * {@link CallService}'s. Used for {@link StatsService} and the cluster machines' routing counters.
 *
 * <p>Example: {@code new StartService<Long>("my.count") { protected List<Long> answers() { return List.of(n); } }}
 *
 * @param <R> what each answer is (a map of counters, for ours)
 */
public abstract class StartService<R> extends CallService<R> {
    protected StartService(final String name) {
        super(name);
    }

    /** The answers of one call, read now. */
    protected abstract List<R> answers();

    @Override
    protected final List<R> answers(final Map<?, ?> params) {
        return answers();
    }
}
