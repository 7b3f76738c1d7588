/**
 * View-driven hotspot migration (Concerto's, issue 17): a read counter per watched view, fed by a read handler on the
 * view ({@link io.pragh.gremlin.events}), lets a round decide, when the view's reads pass a threshold, where its
 * members' values should live: spread over the machines that read them, in proportion to their reads (Concerto's
 * even spread when every machine reads it, a gather onto the one machine that does when only one does). The moves are
 * the split migration's MIGRATE: a member's values move, its keys stay at their hash home.
 * {@link io.pragh.gremlin.hotspot.ViewHotspots} is the embedding API and {@code g.call("pragh.hotspot", [...])} its
 * Gremlin face. One round serves every deployment: {@link io.pragh.gremlin.hotspot.HotspotMachines} is what it needs
 * of the machines (other processes' counts, hosts, moves the coordinator knows of), implemented here for an embedded
 * cluster and in {@code io.pragh.gremlin.distributed} for a multi-process one.
 *
 * <p>May depend on core's embedded cluster and address word, the provider's events, view, storage and structure
 * packages, and TinkerPop; nothing in events or view depends on it.
 */
@MayDependOn({"io.pragh.address", "io.pragh.embedded", "io.pragh.gremlin.events", "io.pragh.gremlin.storage",
    "io.pragh.gremlin.structure", "io.pragh.gremlin.view", "io.pragh.keys", "io.pragh.migration", "io.pragh.runtime",
    "io.pragh.store", "org.agrona..", "org.apache.commons.configuration2..", "org.apache.tinkerpop.."})
package io.pragh.gremlin.hotspot;

import io.pragh.MayDependOn;
