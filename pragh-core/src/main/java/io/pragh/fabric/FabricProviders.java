package io.pragh.fabric;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fabrics on the class path, and the one rule that picks among them. {@code auto} takes verbs when its provider
 * is present and an RDMA device can carry it, otherwise the deployment's fallback (TCP between processes, in-process
 * within one JVM). Asking for a kind by name gets that kind or an error that says why not (no provider on the class
 * path, cannot run on this host, cannot run in TLS, cannot span processes): never a silent substitution. Servers,
 * {@code ./pragh doctor} and tests choose through here, so they agree.
 *
 * <pre>{@code
 * FabricProviders fabrics = FabricProviders.load(getClass().getClassLoader());
 * try (Fabric fabric = fabrics.open(FabricKind.AUTO, Deployment.MULTI_PROCESS, spec)) {   // logs one line: why
 *     Endpoint ep = fabric.attach(spec.machine(), memory, handler);
 * }
 * }</pre>
 */
public final class FabricProviders {
    private static final Logger LOG = LoggerFactory.getLogger(FabricProviders.class);

    private final Map<FabricKind, FabricProvider> byKind = new EnumMap<>(FabricKind.class);
    private final List<String> loadProblems;

    private FabricProviders(List<FabricProvider> providers, List<String> loadProblems) {
        for (FabricProvider p : providers) {
            if (p.kind() == FabricKind.AUTO) {
                throw new IllegalArgumentException(p.getClass().getName() + " provides 'auto', which is a choice, not"
                    + " a fabric");
            }
            FabricProvider earlier = byKind.putIfAbsent(p.kind(), p);
            if (earlier != null) {
                throw new IllegalStateException("two providers of fabric '" + p.name() + "' on the class path: "
                    + earlier.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        this.loadProblems = List.copyOf(loadProblems);
    }

    /**
     * Every {@link FabricProvider} the loader's {@code META-INF/services} lists. A provider that fails to load (its
     * module's dependencies missing) is left out, and its error is quoted when its kind is asked for.
     */
    public static FabricProviders load(ClassLoader loader) {
        List<FabricProvider> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        var it = ServiceLoader.load(FabricProvider.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError e) {
                problems.add(e.getMessage() + (e.getCause() == null ? "" : ": " + e.getCause()));
            }
        }
        return new FabricProviders(found, problems);
    }

    /** Exactly these providers (tests, and a host that wants to plug in a fabric of its own). */
    public static FabricProviders of(List<? extends FabricProvider> providers) {
        return new FabricProviders(List.copyOf(providers), List.of());
    }

    /** In kind order: verbs, tcp, in-process. */
    public List<FabricProvider> providers() {
        return byKind.values().stream().sorted(Comparator.comparing(FabricProvider::kind)).toList();
    }

    /** Why providers listed on the class path could not be loaded (a module without its dependencies). */
    public List<String> loadProblems() {
        return loadProblems;
    }

    public Optional<FabricProvider> provider(FabricKind kind) {
        return Optional.ofNullable(byKind.get(kind));
    }

    /** {@link #choose(FabricKind, Deployment, boolean)} for a cluster that does not require TLS. */
    public FabricChoice choose(FabricKind requested, Deployment deployment) {
        return choose(requested, deployment, false);
    }

    /**
     * Decides, probing the providers' availability; throws IllegalStateException naming why when the requested kind
     * (or {@code auto}'s fallback) cannot serve.
     */
    public FabricChoice choose(FabricKind requested, Deployment deployment, boolean tlsRequired) {
        if (requested != FabricKind.AUTO) {
            return usable(requested, deployment, tlsRequired, "fabric '" + requested.label() + "' was requested",
                "requested; ");
        }
        String whyNotVerbs;
        FabricProvider verbs = byKind.get(FabricKind.VERBS);
        if (verbs == null) {
            whyNotVerbs = notOnClassPath(FabricKind.VERBS);
        } else if (tlsRequired && !verbs.supportsTls()) {
            whyNotVerbs = "verbs cannot run in TLS, which this cluster requires";
        } else {
            FabricProvider.Availability a = verbs.availability();
            if (a.available()) {
                return new FabricChoice(verbs, a.reason(), false);
            }
            whyNotVerbs = "verbs cannot run here: " + a.reason();
        }
        FabricKind fallback = deployment.fallback();
        FabricChoice c = usable(fallback, deployment, tlsRequired, "fabric 'auto' fell back to '" + fallback.label()
            + "' (" + whyNotVerbs + ")", "");
        return new FabricChoice(c.provider(), whyNotVerbs, true);
    }

    /**
     * Chooses, logs the decision in one line (for a fallback, the line says why verbs was not taken) and builds the
     * fabric from {@code spec}.
     */
    public Fabric open(FabricKind requested, Deployment deployment, FabricSpec spec) {
        FabricChoice choice = choose(requested, deployment, spec.tlsRequired());
        LOG.info(describe(requested, deployment, choice));
        return choice.provider().create(spec);
    }

    /** The decision in words: {@code fabric auto for multi-process server: tcp, because verbs cannot run here: ...}. */
    public static String describe(FabricKind requested, Deployment deployment, FabricChoice choice) {
        String head = "fabric " + requested.label() + " for " + deployment.description() + ": ";
        return choice.fallback() ? head + choice.kind().label() + ", because " + choice.reason()
            : head + choice.kind().label() + " (" + choice.reason() + ")";
    }

    /** The provider of {@code kind} if it can serve, with {@code prefix} and its availability as the reason. */
    private FabricChoice usable(FabricKind kind, Deployment deployment, boolean tlsRequired, String asked,
                                String prefix) {
        if (deployment == Deployment.MULTI_PROCESS && !kind.spansProcesses()) {
            throw new IllegalStateException(asked + ", but '" + kind.label() + "' cannot connect machines in "
                + "separate processes; use 'auto', 'tcp' or 'verbs' for a " + deployment.description());
        }
        FabricProvider p = byKind.get(kind);
        if (p == null) {
            throw new IllegalStateException(asked + ", but " + notOnClassPath(kind));
        }
        if (tlsRequired && !p.supportsTls()) {
            throw new IllegalStateException(asked + ", but '" + kind.label() + "' cannot run in TLS, which this "
                + "cluster requires; use a fabric that can (tcp)");
        }
        FabricProvider.Availability a = p.availability();
        if (!a.available()) {
            throw new IllegalStateException(asked + ", but it cannot run on this host: " + a.reason()
                + "; use 'auto' or another fabric here");
        }
        return new FabricChoice(p, prefix + a.reason(), false);
    }

    private String notOnClassPath(FabricKind kind) {
        String found = byKind.isEmpty() ? "none" : providers().stream().map(FabricProvider::name)
            .collect(Collectors.joining(", "));
        return "no provider of fabric '" + kind.label() + "' is on the class path (it comes with " + kind.module()
            + "; found: " + found + ")" + (loadProblems.isEmpty() ? "" : "; providers that failed to load: "
            + String.join("; ", loadProblems));
    }
}
