/**
 * The server-extension SPI: client-protocol operations, value mutators and placement kinds that a server runs only
 * when its cluster file names the extension ({@code extensions: [bench]}), found through
 * {@link java.util.ServiceLoader} so that this module needs no compile-time dependency on any (the benchmark's
 * shard baseline and traversal operations live in pragh-bench). {@link ServerExtension} is what an extension
 * implements, {@link ClientOperations} one machine's side of its operations, {@link ServerExtensions} the ones a
 * machine runs. May depend only on {@code io.pragh.server.config} and core ({@code io.pragh.embedded},
 * {@code io.pragh.keys}, {@code io.pragh.store}); knows nothing of the wire format ({@code io.pragh.server.rpc} puts
 * the operations in its table).
 */
@MayDependOn({"io.pragh.embedded", "io.pragh.keys", "io.pragh.server.config", "io.pragh.store", "org.agrona.."})
package io.pragh.server.extension;

import io.pragh.MayDependOn;
