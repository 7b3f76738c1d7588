/**
 * One machine of a multi-process cluster, assembled from a cluster file: store, durability, the fabric its kind
 * chooses among the providers on the class path, worker and migration threads, client RPC ({@link ServerNode}), and
 * what a machine does when a peer comes back after a crash ({@link CrashRecovery}, paper section 5), and the front
 * ends found on the class path. The migration policy across processes, by duty: {@link MigrationCoordination} runs
 * the monitor and, on the coordinator, the decisions; {@code PolicyMessages} encodes its REPORT and DECISION
 * messages ({@code DecisionKind} the kinds of decision); {@code DecisionDelivery} carries decisions out;
 * {@code ApprovalRecovery} records approvals before they are sent and seeds a new coordinator with them;
 * {@code CountedMigrations} counts the MIGRATEs the migration thread is handed; {@link ServerTiering} runs the
 * far-memory tier's rounds on a compute machine and its moves to memory nodes (TIER_MOVE / TIER_DONE). Holds a
 * plain {@code Fabric}: never
 * names a fabric implementation (it hands the TCP fabric's settings from {@code io.pragh.fabric.tcp} to the spec).
 * May depend on core, {@code io.pragh.fabric.tcp}'s settings, {@code io.pragh.server.frontend},
 * {@code io.pragh.server.config} and {@code io.pragh.server.rpc}; knows nothing of command lines or processes.
 */
@MayDependOn({"io.micrometer..", "io.pragh", "io.pragh.address", "io.pragh.cache", "io.pragh.coordinator",
    "io.pragh.durability", "io.pragh.embedded", "io.pragh.fabric", "io.pragh.fabric.tcp", "io.pragh.keys",
    "io.pragh.memory", "io.pragh.migration", "io.pragh.monitor", "io.pragh.reclaim", "io.pragh.runtime",
    "io.pragh.server.config", "io.pragh.server.extension", "io.pragh.server.frontend", "io.pragh.server.membership",
    "io.pragh.server.metrics", "io.pragh.server.rpc", "io.pragh.store", "io.pragh.tier", "io.pragh.values", "org.agrona.."})
package io.pragh.server.node;

import io.pragh.MayDependOn;
