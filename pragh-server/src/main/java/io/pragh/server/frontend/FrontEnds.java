package io.pragh.server.frontend;

import io.pragh.store.Mutators;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front ends found on the class path for one machine, started and closed together. An empty set is valid: the
 * machine then serves its client RPC only (and its ready line says the front ends are off).
 *
 * <pre>{@code
 * FrontEnds fronts = FrontEnds.load(getClass().getClassLoader());
 * fronts.registerMutators(mutators);   // before the store is built
 * fronts.start(new FrontEnd.Host(machine, config, id, timeout, registry, counters));
 * }</pre>
 */
public final class FrontEnds implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FrontEnds.class);

    private final List<FrontEnd> all;
    private final List<FrontEnd> started = new ArrayList<>();

    private FrontEnds(List<FrontEnd> all) {
        this.all = List.copyOf(all);
    }

    /** Every {@link FrontEnd} the loader's {@code META-INF/services} lists, one new instance each. */
    public static FrontEnds load(ClassLoader loader) {
        List<FrontEnd> found = new ArrayList<>();
        ServiceLoader.load(FrontEnd.class, loader).forEach(found::add);
        return new FrontEnds(found);
    }

    /** Exactly these front ends (tests). */
    public static FrontEnds of(List<FrontEnd> frontEnds) {
        return new FrontEnds(frontEnds);
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    public void registerMutators(Mutators mutators) {
        for (FrontEnd f : all) {
            f.registerMutators(mutators);
        }
    }

    /** Starts each in turn; if one fails, the ones already started are closed and the failure names the front end. */
    public void start(FrontEnd.Host host) {
        for (FrontEnd f : all) {
            try {
                f.start(host);
                started.add(f);
            } catch (Exception e) {
                close();
                throw new IllegalStateException("machine " + host.id() + ": front end " + f.name()
                    + " failed to start: " + e.getMessage(), e);
            }
        }
    }

    /** For the ready line: each front end's phrase, or that there are none on the class path. */
    public String describe() {
        if (all.isEmpty()) {
            return "front ends off (none on the class path; Gremlin is off: run with pragh-gremlin's class path)";
        }
        List<String> parts = new ArrayList<>();
        for (FrontEnd f : all) {
            parts.add(started.contains(f) ? f.describe() : f.name() + " not started");
        }
        return String.join(", ", parts);
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (RuntimeException e) {
                LOG.warn("closing front end {} failed", started.get(i).name(), e);
            }
        }
        started.clear();
    }
}
