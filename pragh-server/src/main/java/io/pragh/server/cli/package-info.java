/**
 * Command lines: {@code ./pragh server} runs one machine from a cluster file ({@link ServerCommand});
 * {@code ./pragh cluster} runs a local multi-process cluster on 127.0.0.1 ({@link ClusterCommand}) through
 * {@link LocalCluster}, which owns a cluster directory (config, pid files, logs) and the server processes in it, and
 * whose {@link Supervisor} process restarts machines that exit ({@link RestartBackoff} says when). Behind
 * {@link LocalCluster}, one duty each: {@code ClusterFiles} writes a new directory ({@code FreePorts} finds its
 * ports), {@code ClusterProcesses} launches the processes and tracks their pid files and logs,
 * {@code ClusterReadiness} waits until they serve, {@code ClusterStatus} describes them; {@code LoadCommand} runs
 * {@code cluster load} (PUTs through {@code WriteLoad}, then edges through the {@link io.pragh.server.load.EdgeLoad}
 * on the class path); {@code ./pragh doctor} reports the fabrics this host can run ({@link DoctorCommand}).
 * May depend on everything in {@code io.pragh.server}; nothing depends on it.
 */
@MayDependOn({"io.pragh.durability", "io.pragh.fabric", "io.pragh.fabric.tcp", "io.pragh.keys",
    "io.pragh.server.config", "io.pragh.server.load", "io.pragh.server.node", "io.pragh.server.rpc",
    "org.apache.zookeeper.."})
package io.pragh.server.cli;

import io.pragh.MayDependOn;
