package io.pragh.gremlin.server;

import io.pragh.gremlin.structure.GraphStore;
import org.apache.commons.configuration2.Configuration;

import java.io.PrintStream;

/**
 * Something {@code ./pragh serve} starts beside Gremlin Server over the same store, found on the class path through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.pragh.gremlin.server.ServeExtension}), so a module
 * built on this one (pragh-rdf's SPARQL endpoint) is served without this module depending on it. An extension reads
 * its settings from the graph's configuration ({@code --set KEY=VALUE}) and does nothing when they do not ask for it.
 *
 * <p>Example: {@code ./pragh serve --set pragh.rdf.load=lubm-1.nt} starts the SPARQL endpoint with LUBM-1 loaded.
 */
public interface ServeExtension {
    /**
     * Not a {@code --set} key: the {@code user:password} file of {@code --credentials}, which {@code serve} puts in
     * the settings it hands {@link #start}, so that an extension's port asks for the Gremlin port's logins.
     */
    String CREDENTIALS = "pragh.serve.credentials";

    /**
     * Starts serving over {@code store} on {@code host}, or returns null when {@code settings} do not ask for it.
     * Progress of any loading goes to {@code progress}.
     */
    Started start(GraphStore store, String host, Configuration settings, PrintStream progress) throws Exception;

    /**
     * The {@code --set} keys this extension reads, each with what it takes (for the error a typo gets), so that
     * {@link GraphSettings} accepts them; their values reach {@link #start} as text, checked there.
     */
    default java.util.Map<String, String> settings() {
        return java.util.Map.of();
    }

    /** A started extension: one line saying where it serves, and a close that stops it. */
    interface Started extends AutoCloseable {
        String describe();

        @Override
        void close();
    }
}
