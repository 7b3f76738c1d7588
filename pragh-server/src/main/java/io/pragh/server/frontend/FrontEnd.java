package io.pragh.server.frontend;

import io.pragh.server.config.ClusterConfig;
import io.pragh.store.Mutators;

/**
 * A query front end a server process runs beside its client RPC, for example Gremlin on the machine's
 * {@code gremlinPort}. Implementations are listed in {@code META-INF/services/io.pragh.server.frontend.FrontEnd} and
 * need a public no-argument constructor; a server creates one instance per machine. Every machine of a cluster must
 * run the same front ends: the mutators a front end registers run wherever a value lives.
 *
 * <pre>{@code
 * public final class EchoFrontEnd implements FrontEnd {
 *     public String name() { return "echo"; }
 *     public void start(Host host) { System.out.println("machine " + host.machineId()); }
 *     public String describe() { return "echo on"; }
 *     public void close() { }
 * }
 * }</pre>
 */
public interface FrontEnd extends AutoCloseable {
    /** What the front end is called in log lines. */
    String name();

    /**
     * Registers the value mutators the front end's updates name; called before the machine's store exists, on every
     * machine, so a mutator forwarded to any value host is known there.
     */
    default void registerMutators(Mutators mutators) {
    }

    /**
     * Starts serving; called once the machine has recovered and runs, before its client port opens (so a machine
     * that answers PING also serves its front ends). A failure stops the machine's start.
     */
    void start(Host host) throws Exception;

    /** One phrase for the server's ready line, e.g. {@code "gremlin /127.0.0.1:8182"}. */
    String describe();

    /** Stops serving; called before the machine itself closes. */
    @Override
    void close();

    /**
     * What a front end gets of its machine.
     *
     * @param machine the running machine
     * @param config  the cluster file every machine shares
     * @param id      this machine's id
     * @param timeoutMillis how long one store operation may take before it fails (a peer it needs may be down)
     * @param metrics the machine's meter registry (served on {@code GET /metrics} when the cluster file opens a
     *                metrics port), where a front end adds its own meters
     * @param counters what the machine counts, for a front end that reports it (e.g. {@code pragh.stats})
     */
    record Host(io.pragh.embedded.Machine machine, ClusterConfig config, int id, long timeoutMillis,
                io.micrometer.core.instrument.MeterRegistry metrics,
                io.pragh.server.metrics.MachineCounters counters) {
        /** The host to listen on: the fabric's bind host when the cluster file sets one, else this machine's host. */
        public String bindHost() {
            return config.fabric().bindHost() != null ? config.fabric().bindHost() : config.machine(id).host();
        }
    }
}
