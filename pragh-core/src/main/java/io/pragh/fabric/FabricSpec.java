package io.pragh.fabric;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link FabricProvider} builds a fabric from: the machines and their fabric addresses, which of them this
 * process hosts, the timeouts every networked fabric honours, whether the cluster requires TLS, and settings only one
 * fabric understands (the TCP fabric's options and cluster secret), keyed by their type so that this package need not
 * know them. A provider refuses a spec it cannot serve with an IllegalArgumentException saying what is missing.
 *
 * <pre>{@code
 * FabricSpec spec = FabricSpec.of(1, addresses)
 *     .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2))
 *     .withSetting(ClusterSecret.class, secret);
 * }</pre>
 *
 * @param machine        the machine this process hosts, or {@link #EVERY_MACHINE} when all of them live here
 * @param machineCount   machines in the cluster
 * @param addresses      each machine's fabric address by id, or empty where the fabric needs none (in-process)
 * @param connectTimeout bound on opening a connection to a peer
 * @param requestTimeout bound on any one-sided operation; a peer that misses it is given up
 * @param tlsRequired    whether traffic between machines must run in TLS
 * @param settings       fabric-specific settings by type
 */
public record FabricSpec(int machine, int machineCount, List<InetSocketAddress> addresses, Duration connectTimeout,
                         Duration requestTimeout, boolean tlsRequired, Map<Class<?>, Object> settings) {
    public static final int EVERY_MACHINE = -1;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);

    public FabricSpec {
        if (machineCount < 1) {
            throw new IllegalArgumentException("a fabric connects at least one machine, got " + machineCount);
        }
        if (machine != EVERY_MACHINE && (machine < 0 || machine >= machineCount)) {
            throw new IllegalArgumentException("machine " + machine + " is outside 0.." + (machineCount - 1));
        }
        addresses = List.copyOf(addresses);
        if (!addresses.isEmpty() && addresses.size() != machineCount) {
            throw new IllegalArgumentException(addresses.size() + " addresses for " + machineCount + " machines");
        }
        positive("connectTimeout", connectTimeout);
        positive("requestTimeout", requestTimeout);
        settings = Map.copyOf(settings);
        settings.forEach((type, value) -> {
            if (!type.isInstance(value)) {
                throw new IllegalArgumentException("setting " + value + " is not a " + type.getName());
            }
        });
    }

    /** Every machine in this process, reached without addresses (the in-process fabric). */
    public static FabricSpec embedded(int machineCount) {
        return new FabricSpec(EVERY_MACHINE, machineCount, List.of(), DEFAULT_CONNECT_TIMEOUT,
            DEFAULT_REQUEST_TIMEOUT, false, Map.of());
    }

    /** Machine {@code machine} (or {@link #EVERY_MACHINE}) of the machines at {@code addresses}, default timeouts. */
    public static FabricSpec of(int machine, List<InetSocketAddress> addresses) {
        return new FabricSpec(machine, addresses.size(), addresses, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT,
            false, Map.of());
    }

    public FabricSpec withTimeouts(Duration connect, Duration request) {
        return new FabricSpec(machine, machineCount, addresses, connect, request, tlsRequired, settings);
    }

    public FabricSpec requiringTls(boolean required) {
        return new FabricSpec(machine, machineCount, addresses, connectTimeout, requestTimeout, required, settings);
    }

    /** Adds (or replaces) the setting of {@code type}; a null value leaves it absent. */
    public <T> FabricSpec withSetting(Class<T> type, T value) {
        Map<Class<?>, Object> next = new HashMap<>(settings);
        if (value == null) {
            next.remove(type);
        } else {
            next.put(type, value);
        }
        return new FabricSpec(machine, machineCount, addresses, connectTimeout, requestTimeout, tlsRequired, next);
    }

    public <T> Optional<T> setting(Class<T> type) {
        return Optional.ofNullable(type.cast(settings.get(type)));
    }

    /** The setting of {@code type}, or an IllegalArgumentException saying that {@code fabric} needs it. */
    public <T> T require(Class<T> type, String fabric) {
        return setting(type).orElseThrow(() -> new IllegalArgumentException("the " + fabric + " fabric needs a "
            + type.getSimpleName() + " setting"));
    }

    public boolean hostsEveryMachine() {
        return machine == EVERY_MACHINE;
    }

    /** The addresses, or an IllegalArgumentException saying that {@code fabric} needs them. */
    public List<InetSocketAddress> requireAddresses(String fabric) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("the " + fabric + " fabric needs every machine's address");
        }
        return addresses;
    }

    private static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }
}
