package io.pragh.bench.jmh;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.Region;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.fabric.tcp.DevCertificates;
import io.pragh.fabric.tcp.TcpFabric;
import io.pragh.fabric.tcp.TcpFabricOptions;
import io.pragh.memory.ChunkedRegion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one 64-byte one-sided READ over the TCP fabric between two machines in this JVM on 127.0.0.1, with the
 * cluster-secret handshake only ({@code plain}) and inside mutual TLS 1.3 ({@code tls}, a throwaway CA from
 * {@link DevCertificates}). The connection is opened (and authenticated) in the setup, so the figure is the
 * per-operation cost of TLS records, not of handshakes.
 *
 * <pre>{@code
 * ./pragh bench jmh TcpFabricRead -f 1 -wi 2 -i 3
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class TcpFabricReadBenchmark {
    private static final int CHUNK = 1 << 16;
    private static final int BYTES = 64;

    @Param({"plain", "tls"})
    public String security;

    private Path certificates;
    private MachineMemory[] memories;
    private TcpFabric[] fabrics;
    private Endpoint endpoint;
    private final UnsafeBuffer into = new UnsafeBuffer(new byte[BYTES]);

    @Setup(Level.Trial)
    public void start() throws IOException {
        ClusterTls tls = null;
        if (security.equals("tls")) {
            certificates = Files.createTempDirectory("pragh-bench-tls");
            DevCertificates c = DevCertificates.create(certificates);
            tls = ClusterTls.fromPem(c.certificate(), c.key(), c.trust());
        }
        ClusterSecret secret = ClusterSecret.fromString("bench-cluster-secret-0123456789");
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        TcpFabricOptions options = TcpFabricOptions.defaults().withHandshakeTimeout(Duration.ofSeconds(30));
        fabrics = new TcpFabric[2];
        memories = new MachineMemory[2];
        MessageHandler ignore = (from, msg, off, len) -> { };
        Endpoint[] endpoints = new Endpoint[2];
        for (int m = 0; m < 2; m++) {
            fabrics[m] = new TcpFabric(m, List.of(any, any), secret, options, tls);
        }
        for (int m = 0; m < 2; m++) {
            for (int peer = 0; peer < 2; peer++) {
                fabrics[m].updateAddress(peer, fabrics[peer].localAddress());
            }
            memories[m] = new MachineMemory(ChunkedRegion.allocate("keys-" + m, CHUNK, CHUNK),
                ChunkedRegion.allocate("values-" + m, CHUNK, CHUNK), ChunkedRegion.allocate("reclaim-" + m, CHUNK,
                CHUNK));
            endpoints[m] = fabrics[m].attach(m, memories[m], ignore);
        }
        endpoint = endpoints[0];
        endpoint.read(1, Region.VALUES, 0, into, 0, BYTES); // connects and authenticates outside the measurement
    }

    @Benchmark
    public UnsafeBuffer read() {
        endpoint.read(1, Region.VALUES, 128, into, 0, BYTES);
        return into;
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        for (TcpFabric f : fabrics) {
            f.close();
        }
        for (MachineMemory m : memories) {
            m.keys().close();
            m.values().close();
            m.reclaim().close();
        }
        if (certificates != null) {
            try (Stream<Path> files = Files.walk(certificates)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
