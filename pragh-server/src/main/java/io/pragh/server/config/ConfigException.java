package io.pragh.server.config;

import io.pragh.PraghException;

/**
 * A configuration file that cannot be used, with the key at fault (a path such as {@code machines[1].fabricPort})
 * and why. Never carries the cluster secret.
 *
 * <pre>{@code
 * try { ClusterConfig.load(path); } catch (ConfigException e) { System.err.println(e.getMessage()); }
 * // cluster.yaml: machines[1].fabricPort: must be between 1 and 65535, got 70000
 * }</pre>
 */
public final class ConfigException extends PraghException {
    private static final long serialVersionUID = 1L;
    private final String key;
    private final String reason;

    public ConfigException(String source, String key, String reason) {
        super(source + ": " + (key.isEmpty() ? "" : key + ": ") + reason);
        this.key = key;
        this.reason = reason;
    }

    /** The offending key's path, empty for the document as a whole. */
    public String key() {
        return key;
    }

    public String reason() {
        return reason;
    }
}
