package io.pragh.server.config;

import java.time.Duration;

/**
 * Where the cluster's membership lives: an Apache ZooKeeper ensemble holding live machines as ephemeral nodes, the
 * coordinator election and the recorded target of every approved migration (paper section 5). Without it
 * ({@link #enabled()} false) a crashed machine is recovered from when it restarts, not when it dies.
 *
 * <pre>{@code
 * if (config.membership().enabled()) { ZooKeeperMembership.join(config.membership(), id, info, listener); }
 * }</pre>
 *
 * @param zookeeper      the ensemble's connect string ({@code host:port[,host:port...]}), or null for none
 * @param sessionTimeout how long a silent machine keeps its ephemeral node: the crash detection delay
 * @param root           the znode under which this cluster keeps its nodes
 */
public record MembershipConfig(String zookeeper, Duration sessionTimeout, String root) {
    public static final MembershipConfig NONE = new MembershipConfig(null, Duration.ofSeconds(10), "/pragh");

    public boolean enabled() {
        return zookeeper != null;
    }

    static MembershipConfig read(ConfigNode n) {
        n.allow("zookeeper", "sessionTimeout", "root");
        String connect = n.has("zookeeper") ? n.string("zookeeper", null) : null;
        if (connect != null && !connect.matches("[^\\s,/]+:\\d{1,5}(,[^\\s,/]+:\\d{1,5})*")) {
            throw n.error("zookeeper", "expected host:port[,host:port...], got \"" + connect + "\"");
        }
        Duration session = n.duration("sessionTimeout", NONE.sessionTimeout(), Duration.ofMillis(500),
            Duration.ofMinutes(10));
        String root = n.string("root", NONE.root());
        if (!root.matches("(/[A-Za-z0-9_.-]+)+")) {
            throw n.error("root", "expected an absolute znode path such as /pragh, got \"" + root + "\"");
        }
        return new MembershipConfig(connect, session, root);
    }
}
