package io.pragh.server.cli;

import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.MachineClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code ./pragh cluster status} prints of a local cluster: its ZooKeeper, its supervisor, then one line per
 * machine with its pid and, when it runs, what its PING answers and where its other ports are.
 *
 * <pre>{@code
 * ClusterStatus.lines(LocalCluster.open(dir)).forEach(System.out::println);
 * }</pre>
 */
final class ClusterStatus {
    private ClusterStatus() {
    }

    static List<String> lines(LocalCluster c) {
        ClusterConfig config = c.config();
        List<String> lines = new ArrayList<>();
        if (c.hasLocalZooKeeper()) {
            lines.add("zookeeper " + config.membership().zookeeper() + ": " + c.process(LocalCluster.ZOOKEEPER)
                .map(p -> "pid " + p.pid() + " running").orElse("not running"));
        } else if (config.membership().enabled()) {
            lines.add("zookeeper " + config.membership().zookeeper() + " (external)");
        }
        lines.add("supervisor: " + c.process(LocalCluster.SUPERVISOR).map(p -> "pid " + p.pid() + " running (restarts"
            + " machines that exit; log " + c.log(LocalCluster.SUPERVISOR) + ")")
            .orElse("not running (machines that exit stay down)"));
        for (int i = 0; i < c.machineCount(); i++) {
            Optional<ProcessHandle> p = c.process(i);
            String line = "machine " + i + ": " + (p.isPresent() ? "pid " + p.get().pid() + " running" : "not running");
            if (p.isPresent()) {
                try (MachineClient m = new MachineClient(c.clientAddress(i), 2_000, config.secret(), config.tls())) {
                    MachineClient.Status s = m.ping();
                    line += ", serving clients on " + c.clientAddress(i) + ", " + s.homeKeys() + " home keys, "
                        + s.restoredValues() + " values restored after peers' crashes, " + (config.machine(i)
                        .gremlinPort() == MachineConfig.NO_GREMLIN_PORT ? "no gremlinPort" : "gremlinPort "
                        + config.machine(i).gremlinPort() + " (served when pragh-gremlin is on the class path)")
                        + (config.metrics().port(i) == 0 ? "" : ", metrics http://127.0.0.1:"
                        + config.metrics().port(i) + "/metrics")
                        + (config.sparql().port(i) == 0 ? "" : ", sparql http://127.0.0.1:"
                        + config.sparql().port(i) + "/sparql");
                } catch (ClientException e) {
                    line += ", not answering on " + c.clientAddress(i) + " (" + e.getMessage() + ")";
                }
            }
            lines.add(line);
        }
        return lines;
    }
}
