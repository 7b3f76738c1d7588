/**
 * The coordinator of split live migration: collects monitor reports and approves migrations with a threshold policy,
 * eagerly or deferred (paper sections 3 and 4.4), and which read replicas to offer beyond it
 * ({@link io.pragh.coordinator.ReplicaPolicy}, docs/replicas.md). It decides only; applying its approvals (MIGRATE on the target's
 * migration thread) and its tracking requests is the caller's job. Depends on {@code io.pragh.monitor} and
 * {@code io.pragh.keys}.
 */
@MayDependOn({"io.pragh.keys", "io.pragh.monitor", "org.agrona.."})
package io.pragh.coordinator;

import io.pragh.MayDependOn;
