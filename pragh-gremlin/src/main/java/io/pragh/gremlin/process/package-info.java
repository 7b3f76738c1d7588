/**
 * Traversal strategies and steps specific to Pragh: {@link io.pragh.gremlin.process.PraghHopStrategy} fuses
 * {@code V(ids).out(..).in(..)...} chains (and their {@code ...outE().count()} form) into one
 * {@link io.pragh.gremlin.process.PraghHopStep} that walks the hops with GETs on the start vertex's home machine.
 *
 * <p>May depend on {@code io.pragh.gremlin.structure}, {@code io.pragh.gremlin.storage} and gremlin-core.
 */
package io.pragh.gremlin.process;
