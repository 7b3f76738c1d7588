/**
 * {@code ./pragh serve}: Gremlin Server hosting an embedded Pragh cluster. {@link io.pragh.gremlin.server.ServeCommand}
 * parses the command line, {@link io.pragh.gremlin.server.PraghServer} configures and runs Gremlin Server (GraphBinary
 * and GraphSON v3, {@code g} bound by {@link io.pragh.gremlin.server.PraghGraphManager} without Groovy),
 * {@link io.pragh.gremlin.server.GraphLoader} loads a file with a progress bar. {@code ./pragh load}
 * ({@link io.pragh.gremlin.server.LoadCommand}) and {@code serve --load} open a graph sized from the file and bulk-load
 * it through {@link io.pragh.gremlin.server.FileLoad}.
 *
 * <p>What a client may do: {@link io.pragh.gremlin.server.SafeAuthorizer} vets every request against the
 * {@link io.pragh.gremlin.server.StepPolicy} (bytecode through {@link io.pragh.gremlin.server.BytecodeSteps},
 * gremlin-lang through {@link io.pragh.gremlin.server.ScriptSteps}; {@code io()} confined by
 * {@link io.pragh.gremlin.server.IoDirectory}), {@link io.pragh.gremlin.server.PasswordFileAuthenticator} checks
 * logins, and {@link io.pragh.gremlin.server.ClientErrors} (placed by {@link io.pragh.gremlin.server.PraghChannelizer})
 * keeps Java internals out of error responses.
 *
 * <p>May depend on {@code io.pragh.gremlin.structure}, {@code io.pragh.gremlin.load}, gremlin-server and gremlin-core; only
 * {@code io.pragh.gremlin.distributed} depends on it (each cluster machine runs a {@code PraghServer}).
 */
@MayDependOn({"io.micrometer..", "io.netty..", "io.pragh", "io.pragh.coordinator", "io.pragh.embedded",
    "io.pragh.fabric", "io.pragh.gremlin.analytics", "io.pragh.gremlin.events", "io.pragh.gremlin.hotspot",
    "io.pragh.gremlin.load",
    "io.pragh.gremlin.structure", "io.pragh.gremlin.view", "io.pragh.server.config",
    "io.pragh.server.metrics", "org.agrona..", "org.antlr..", "org.apache.commons.configuration2..",
    "org.apache.commons.text..", "org.apache.tinkerpop.."})
package io.pragh.gremlin.server;

import io.pragh.MayDependOn;
