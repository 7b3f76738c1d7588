/**
 * A fault-injecting {@link io.pragh.fabric.Fabric}: {@link FaultFabric} wraps any fabric (in-process, TCP, verbs)
 * and, by rules a test or a soak run installs ({@link FaultSelector}, {@link FaultRule}), delays, holds until
 * released, reorders, drops, refuses, or fails and then applies late chosen one-sided operations (READ, WRITE, CAS, single or batched) and
 * two-sided messages, selected by kind and by source and target machine. Rules that fire by chance draw from a seeded
 * random source each, so a run with the same seed makes the same choices for the same sequence of operations.
 *
 * <p>Why in pragh-core's main code: the core's consistency tests and pragh-bench's soak benchmark both run under it,
 * and users testing their deployments can wrap their own fabric in it. Depends on {@code io.pragh.fabric},
 * {@code io.pragh.runtime} (its named threads) and Agrona only.
 */
@MayDependOn({"io.pragh.fabric", "io.pragh.runtime", "org.agrona.."})
package io.pragh.fabric.fault;

import io.pragh.MayDependOn;
