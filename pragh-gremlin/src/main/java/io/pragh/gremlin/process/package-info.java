/**
 * Traversal strategies and steps specific to Pragh: {@link io.pragh.gremlin.process.PraghHopStrategy} fuses
 * {@code V(ids).out(..).in(..)...} chains (and their {@code ...outE().count()} form) into one
 * {@link io.pragh.gremlin.process.PraghHopStep} that walks the hops with GETs on the start vertex's home machine
 * (a hop's lists in one batch, then the sealed segments of the supernodes among them in one more:
 * {@link io.pragh.gremlin.process.SegmentBatch});
 * {@link io.pragh.gremlin.process.PraghRoutingStrategy}, before it, sends a traversal from {@code V(ids)} of one other
 * home machine to that machine (multi-process clusters only) when the router grants a forwarding permit, which
 * {@link io.pragh.gremlin.process.ForwardPermitStep} returns when the forwarded traversal ends.
 *
 * <p>May depend on {@code io.pragh.gremlin.structure}, {@code io.pragh.gremlin.storage}, pragh-core's
 * {@code ValueView} (the flyweight a GET hands out), Agrona's buffers and gremlin-core.
 */
@MayDependOn({"io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.store", "org.agrona..",
    "org.apache.tinkerpop.."})
package io.pragh.gremlin.process;

import io.pragh.MayDependOn;
