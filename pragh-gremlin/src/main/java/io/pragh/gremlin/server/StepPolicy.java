package io.pragh.gremlin.server;

import io.pragh.gremlin.analytics.GraphAlgorithms;
import org.apache.tinkerpop.gremlin.process.computer.traversal.strategy.decoration.VertexProgramStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.IO;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.ConnectiveStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.ElementIdStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.OptionsStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.PartitionStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.SeedStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.SubgraphStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.finalization.ReferenceElementStrategy;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;
import org.apache.tinkerpop.gremlin.structure.service.Service;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a request may do on a Pragh server, step by step; everything that reaches past the graph is refused unless
 * admitted here. The request forms ({@link BytecodeSteps}, {@link ScriptSteps}) ask it about each step that could:
 * <ul>
 *   <li>{@code io()}, reading or writing: refused, or with {@code --allow-io DIR} confined to that directory
 *       ({@link IoDirectory}) and to the graphson, gryo and graphml formats (a reader or writer named by class, or
 *       an io registry, would load code by name);</li>
 *   <li>{@code call()}: only Pragh's own services that reach no further than the graph ({@value StatsService#NAME},
 *       {@value #ROUTING_SERVICE}, {@value #SUBSCRIBE_SERVICE}, and BFS and PageRank, which read the graph and
 *       write its properties as any traversal may; {@value #HOTSPOT_SERVICE}, which places a watched view's values on
 *       the graph's own machines by names and numbers, keys and data unchanged) and the listing of services;</li>
 *   <li>lambdas: refused unless Groovy is allowed ({@code --allow-groovy}, which admits any code anyway);</li>
 *   <li>{@code withComputer()} and {@code program()}: refused, Pragh has no graph computer and a vertex program
 *       is code;</li>
 *   <li>{@code withStrategies()}: only strategies that rewrite or check the traversal itself; the others (vertex
 *       programs, halted-traverser factories, match algorithms) load classes by name.</li>
 * </ul>
 * Each refusal names the step and says how to do without it, or how to allow it.
 *
 * <p>Example: {@code new StepPolicy(IoDirectory.of(Path.of("/srv/io")), false).io("graph.json");}
 */
public final class StepPolicy {
    /** {@code g.call("pragh.routing")} of a cluster machine (io.pragh.gremlin.distributed's RoutingService). */
    public static final String ROUTING_SERVICE = "pragh.routing";
    /** {@code g.call("pragh.subscribe", [view: ...])}: a stream of a view's events (io.pragh.gremlin.events). */
    public static final String SUBSCRIBE_SERVICE = "pragh.subscribe";
    /**
     * {@code g.call("pragh.hotspot", [...])}: view-driven hotspot migration (io.pragh.gremlin.hotspot). Admitted: it
     * takes only a view name and numbers, and moves the graph's values between the graph's own machines (keys stay,
     * values are unchanged), as the migration policy does by itself; on a cluster of server processes it is how an
     * operator watches a view and runs a round on the coordinator's machine.
     */
    public static final String HOTSPOT_SERVICE = "pragh.hotspot";
    private static final Set<String> SERVICES = Set.of(StatsService.NAME, ROUTING_SERVICE, SUBSCRIBE_SERVICE,
        GraphAlgorithms.BFS_SERVICE, GraphAlgorithms.PAGERANK_SERVICE, HOTSPOT_SERVICE, Service.DirectoryService.NAME);
    private static final Set<Class<?>> DECORATIONS = Set.of(ConnectiveStrategy.class, ElementIdStrategy.class,
        OptionsStrategy.class, PartitionStrategy.class, SeedStrategy.class, SubgraphStrategy.class,
        ReferenceElementStrategy.class);
    private static final String STRATEGIES = "org.apache.tinkerpop.gremlin.process.traversal.strategy.";
    private static final Set<String> IO_FORMATS = Set.of(IO.graphson, IO.gryo, IO.graphml);
    /** The prefix of every io() option key ({@link IO#reader}, {@link IO#writer}, {@link IO#registry}). */
    private static final String IO_OPTION = IO.reader.substring(0, IO.reader.lastIndexOf('.') + 1);

    private final IoDirectory ioDirectory;
    private final boolean allowLambdas;

    /**
     * @param ioDirectory  where io() may read and write, or null to refuse io()
     * @param allowLambdas whether lambdas run (only with Groovy allowed)
     */
    public StepPolicy(final IoDirectory ioDirectory, final boolean allowLambdas) {
        this.ioDirectory = ioDirectory;
        this.allowLambdas = allowLambdas;
    }

    /** Admits {@code io(path)}; returns the real path it may use. */
    public Path io(final String path) throws AuthorizationException {
        if (ioDirectory == null) {
            throw new AuthorizationException("io('" + path + "') is refused by this server: io() reads and writes the"
                + " server's files. Load files when the server starts (./pragh serve --load FILE), or start it with"
                + " --allow-io DIR (cluster file: gremlin.allowIo) to let io() use that one directory");
        }
        return ioDirectory.confine(path);
    }

    /** Admits {@code with(key, value)} when it configures io(): a known format for the reader or writer. */
    public void ioOption(final String key, final Object value) throws AuthorizationException {
        if (key == null || !key.startsWith(IO_OPTION)) {
            return;
        }
        final boolean format = key.equals(IO.reader) || key.equals(IO.writer);
        if (!format || !(value instanceof String) || !IO_FORMATS.contains(value)) {
            throw new AuthorizationException("with(" + optionName(key) + ", " + value + ") is refused by this server:"
                + " io() reads and writes only " + new TreeSet<>(IO_FORMATS) + ", chosen with IO.reader or IO.writer"
                + " (a reader, writer or registry named by class would load code)");
        }
    }

    private static String optionName(final String key) {
        return key.equals(IO.reader) ? "IO.reader" : key.equals(IO.writer) ? "IO.writer"
            : key.equals(IO.registry) ? "IO.registry" : "'" + key + "'";
    }

    /** Admits {@code call(service)}; a null service is the listing {@code call()}. */
    public void service(final String service) throws AuthorizationException {
        if (service != null && !SERVICES.contains(service)) {
            throw new AuthorizationException("call('" + service + "') is refused by this server: only Pragh's"
                + " services that reach no further than the graph are served (" + StatsService.NAME + ", "
                + ROUTING_SERVICE + ", " + SUBSCRIBE_SERVICE + ", " + GraphAlgorithms.BFS_SERVICE + ", "
                + GraphAlgorithms.PAGERANK_SERVICE + ", " + HOTSPOT_SERVICE + "; call() lists them)");
        }
    }

    /** Admits {@code withStrategies(strategy)}, given by its class (null when the name is not a known strategy). */
    public void strategy(final String name, final Class<?> strategy) throws AuthorizationException {
        if (strategy == VertexProgramStrategy.class) {
            computer("withStrategies(" + name + "), what withComputer() sends,");
        }
        if (strategy == null || !TraversalStrategy.class.isAssignableFrom(strategy) || !admitted(strategy)) {
            throw new AuthorizationException("withStrategies(" + name + ") is refused by this server: only strategies"
                + " that rewrite or check the traversal itself are admitted (decorations "
                + new TreeSet<>(DECORATIONS.stream().map(Class::getSimpleName).toList())
                + ", and optimizations and verifications)");
        }
    }

    private static boolean admitted(final Class<?> strategy) {
        final String name = strategy.getName();
        return DECORATIONS.contains(strategy) || name.startsWith(STRATEGIES + "optimization.")
            || name.startsWith(STRATEGIES + "verification.");
    }

    /** Refuses a step that runs a graph computer program, as {@code withComputer()} or {@code program()}. */
    public void computer(final String step) throws AuthorizationException {
        throw new AuthorizationException(step + " is refused by this server: Pragh has no graph computer, and a"
            + " vertex program is code the server would run");
    }

    /** Admits a lambda given to {@code step} only when Groovy is allowed. */
    public void lambda(final String step) throws AuthorizationException {
        if (!allowLambdas) {
            throw new AuthorizationException("lambdas are refused by this server (step " + step + "): express the step"
                + " in Gremlin without a lambda (start the server with --allow-groovy to allow them)");
        }
    }
}
