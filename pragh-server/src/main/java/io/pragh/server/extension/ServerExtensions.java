package io.pragh.server.extension;

import io.pragh.keys.Placement;
import io.pragh.server.config.ConfigException;
import io.pragh.server.config.PlacementConfig;
import io.pragh.store.Mutators;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The server extensions one machine runs: exactly those its cluster file names, found on the class path. A name
 * with no extension on the class path fails the start naming what is there; an extension on the class path that the
 * file does not name is not loaded at all.
 *
 * <pre>{@code
 * ServerExtensions extensions = ServerExtensions.load(config.extensions(), getClass().getClassLoader());
 * extensions.registerMutators(mutators);                           // before the store is built
 * Placement placement = extensions.placement(config.placement(), machines);
 * }</pre>
 */
public final class ServerExtensions {
    /** A server without extensions: the client protocol's own operations only. */
    public static final ServerExtensions NONE = new ServerExtensions(List.of());

    private final List<ServerExtension> all;

    private ServerExtensions(List<ServerExtension> all) {
        this.all = List.copyOf(all);
    }

    /** The extensions called {@code names}, in that order, from the loader's {@code META-INF/services}. */
    public static ServerExtensions load(List<String> names, ClassLoader loader) {
        if (names.isEmpty()) {
            return NONE;
        }
        Map<String, ServerExtension> found = new LinkedHashMap<>();
        // A provider that cannot load fails here (ServiceConfigurationError names it) only for a server that names
        // extensions at all: a server without any never looks.
        for (ServerExtension e : ServiceLoader.load(ServerExtension.class, loader)) {
            found.putIfAbsent(e.name(), e);
        }
        List<ServerExtension> chosen = new ArrayList<>();
        for (String name : names) {
            ServerExtension e = found.get(name);
            if (e == null) {
                throw new IllegalStateException("the cluster file names server extension '" + name + "' (under"
                    + " extensions), and none of that name is on the class path (found: "
                    + (found.isEmpty() ? "none" : String.join(", ", found.keySet())) + "; the benchmark's 'bench'"
                    + " comes with pragh-bench)");
            }
            chosen.add(e);
        }
        return new ServerExtensions(chosen);
    }

    /** Exactly these extensions (tests, and a host that plugs in its own). */
    public static ServerExtensions of(List<? extends ServerExtension> extensions) {
        return new ServerExtensions(List.copyOf(extensions));
    }

    public List<ServerExtension> all() {
        return all;
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    /** Their names, for log lines and errors: {@code bench}, or {@code none}. */
    public String describe() {
        return all.isEmpty() ? "none" : String.join(", ", all.stream().map(ServerExtension::name).toList());
    }

    public void registerMutators(Mutators mutators) {
        for (ServerExtension e : all) {
            e.registerMutators(mutators);
        }
    }

    /**
     * This machine's placement: hash placement, or the one the extension that owns {@code placement.kind} builds.
     * A kind no enabled extension owns is a {@link ConfigException} at {@code placement.kind}.
     */
    public Placement placement(PlacementConfig placement, int machines) {
        if (placement.isHash()) {
            return Placement.hashed(machines);
        }
        for (ServerExtension e : all) {
            Placement p = e.placement(placement, machines);
            if (p != null) {
                return p;
            }
        }
        throw placement.settings().error("kind", "no enabled extension (" + describe() + ") supplies placement '"
            + placement.kind() + "'");
    }
}
