package io.pragh.server.load;

import io.pragh.server.config.ClusterConfig;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Inserts edges into a running cluster through a query front end, as a client would, and measures the acknowledged
 * rate; {@code ./pragh cluster load} runs it after its PUT phase and prints each {@link Result} beside the PUT rate.
 * Implementations are listed in {@code META-INF/services/io.pragh.server.load.EdgeLoad} and need a public no-argument
 * constructor (pragh-gremlin's is the Gremlin driver against every machine's {@code gremlinPort}).
 *
 * <pre>{@code
 * EdgeLoad load = EdgeLoad.find().orElseThrow();
 * for (EdgeLoad.Result r : load.run(ClusterConfig.load(Path.of("/tmp/c/cluster.yaml")),
 *                                   new EdgeLoad.Settings(10, 1_000, 16, List.of(1, 64)))) {
 *     System.out.println(r.edgesPerSecond() + " edges/s, " + r.edgesPerRequest() + " a request");
 * }
 * }</pre>
 */
public interface EdgeLoad {
    /** What the load goes through, for the report, e.g. {@code "Gremlin"}. */
    String name();

    /** Why this cluster cannot take the load (e.g. its file gives no machine a Gremlin port), or null if it can. */
    String unsupported(ClusterConfig config);

    /**
     * Creates {@link Settings#vertices()} vertices, then for each entry of {@link Settings#edgesPerRequest()} inserts
     * edges between them for {@link Settings#seconds()}, and counts the edges the cluster then holds.
     */
    List<Result> run(ClusterConfig config, Settings settings) throws Exception;

    /**
     * @param seconds          how long each measurement inserts edges
     * @param vertices         how many vertices the edges join (random pairs)
     * @param inFlight         requests sent and not yet answered, at most, over all machines
     * @param edgesPerRequest  one measurement per entry: the edges each request inserts
     */
    record Settings(double seconds, int vertices, int inFlight, List<Integer> edgesPerRequest) {
        public Settings {
            if (seconds <= 0 || vertices < 1 || inFlight < 1 || edgesPerRequest.isEmpty()
                || edgesPerRequest.stream().anyMatch(n -> n < 1)) {
                throw new IllegalArgumentException("an edge load needs seconds, vertices, requests in flight and"
                    + " edges per request >= 1, got " + seconds + " s, " + vertices + " vertices, " + inFlight
                    + " in flight, " + edgesPerRequest + " edges per request");
            }
            edgesPerRequest = List.copyOf(edgesPerRequest);
        }
    }

    /**
     * One measurement.
     *
     * @param edgesPerRequest the edges each request inserted
     * @param requests        requests acknowledged
     * @param failed          requests that failed (their edges may or may not be in)
     * @param seconds         how long the inserts took, from the first sent to the last answered
     * @param counted         how many edges of the load's label the cluster holds afterwards beyond those it held
     *                        before, as a count query through the front end answers
     */
    record Result(int edgesPerRequest, long requests, long failed, double seconds, long counted) {
        public long edges() {
            return requests * edgesPerRequest;
        }

        public double edgesPerSecond() {
            return edges() / seconds;
        }

        public double requestsPerSecond() {
            return requests / seconds;
        }

        /** The count checks out: every acknowledged edge is there, and no more than the failed requests may add. */
        public boolean countChecks() {
            return counted >= edges() && counted <= edges() + failed * edgesPerRequest;
        }
    }

    /** The first edge load on the class path, if any. */
    static java.util.Optional<EdgeLoad> find() {
        return ServiceLoader.load(EdgeLoad.class).findFirst();
    }
}
