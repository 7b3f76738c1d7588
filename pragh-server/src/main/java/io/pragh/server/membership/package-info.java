/**
 * Cluster membership through Apache ZooKeeper (Curator): live machines as ephemeral nodes, whose disappearance is
 * how survivors learn of a crash; the coordinator elected by a leader latch; the target of every approved migration
 * recorded before the approval is sent (paper section 5), so that a new coordinator knows where values went.
 * May depend on {@code io.pragh.server.config} and Curator; knows nothing of stores or fabrics (it reports events to
 * a listener).
 */
@MayDependOn({"io.pragh.server.config", "org.apache.curator..", "org.apache.zookeeper.."})
package io.pragh.server.membership;

import io.pragh.MayDependOn;
