package io.pragh.fabric.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.pragh.address.Address;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The fabric of a machine that runs in its own process and reaches its peers over TCP: one {@code TcpFabric} per
 * process, built from the addresses of all machines (its own included) and its own id. It listens on its own
 * address at once; connections to peers open on first use, each proving the cluster secret both ways first.
 * One-sided operations from peers are served by this fabric's Netty event-loop threads directly on the memory
 * passed to {@link #attach}, never by the machine's worker threads.
 *
 * <pre>{@code
 * List<InetSocketAddress> machines = List.of(new InetSocketAddress("10.0.0.1", 7400),
 *                                            new InetSocketAddress("10.0.0.2", 7400));
 * try (TcpFabric fabric = new TcpFabric(0, machines, ClusterSecret.fromFile(secretFile))) {
 *     Endpoint ep = fabric.attach(0, memory, handler);
 *     long seen = ep.compareAndSwap(1, Region.KEYS, slot, expected, desired);
 * }
 * }</pre>
 */
public final class TcpFabric implements Fabric {
    private final int machine;
    private final ClusterSecret secret;
    private final ClusterTls tls;
    private final TcpFabricOptions options;
    private final PeerLink[] links;
    private final EventLoopGroup group;
    private final Bootstrap clientBootstrap;
    private final Channel serverChannel;
    private final Inbox inbox;
    private final int maxFrame;
    private volatile MachineMemory memory;
    private volatile TcpEndpoint endpoint;
    private volatile boolean closed;

    public TcpFabric(int machine, List<InetSocketAddress> machines, ClusterSecret secret) {
        this(machine, machines, secret, TcpFabricOptions.defaults());
    }

    /** Binds this machine's fabric port (its entry in {@code machines}, or {@code options.bindAddress()}). */
    public TcpFabric(int machine, List<InetSocketAddress> machines, ClusterSecret secret, TcpFabricOptions options) {
        this(machine, machines, secret, options, null);
    }

    /**
     * As above, and with {@code tls} not null every connection runs in mutual TLS first: a peer must present a
     * certificate from the cluster's CA and then still prove the cluster secret (README, "Security", says why both).
     */
    public TcpFabric(int machine, List<InetSocketAddress> machines, ClusterSecret secret, TcpFabricOptions options,
                     ClusterTls tls) {
        Objects.requireNonNull(machines, "machines");
        this.secret = Objects.requireNonNull(secret, "secret");
        this.tls = tls;
        this.options = Objects.requireNonNull(options, "options");
        Address.checkMachineCount(machines.size());
        if (machine < 0 || machine >= machines.size()) {
            throw new IllegalArgumentException("machine " + machine + " is outside this fabric's 0.."
                + (machines.size() - 1));
        }
        this.machine = machine;
        this.links = new PeerLink[machines.size()];
        for (int m = 0; m < links.length; m++) {
            links[m] = new PeerLink(this, m, Objects.requireNonNull(machines.get(m), "address of machine " + m));
        }
        this.inbox = new Inbox(machine, options.inboxBytes());
        this.maxFrame = Frame.maxFrameFor(options.maxPayloadBytes(), inbox.maxMessageBytes());
        this.group = new NioEventLoopGroup(options.ioThreads(), new DefaultThreadFactory("pragh-m" + machine + "-tcp",
            true));
        WriteBufferWaterMark waterMark = new WriteBufferWaterMark(1 << 20, 4 << 20);
        this.clientBootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark);
        InetSocketAddress bindTo = options.bindAddress() != null ? options.bindAddress() : machines.get(machine);
        ServerBootstrap server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                        ch.pipeline().addLast(tls.serverHandler(ch.alloc(), options.handshakeTimeout()));
                    }
                    ch.pipeline().addLast(new ServerHandler(TcpFabric.this));
                }
            });
        ChannelFuture bound = server.bind(bindTo).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw new FabricException("machine " + machine + " cannot listen on " + bindTo + ": "
                + bound.cause().getMessage(), false, bound.cause());
        }
        this.serverChannel = bound.channel();
    }

    @Override
    public String name() {
        return "tcp";
    }

    /** {@code tcp /10.0.0.1:7400}: where this machine's fabric port listens. */
    @Override
    public String describe() {
        return name() + " " + localAddress();
    }

    /** The address this machine's fabric port is bound to (with the actual port when 0 was asked for). */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public int machine() {
        return machine;
    }

    public int machineCount() {
        return links.length;
    }

    /**
     * Points this machine at a peer's new address, as when the peer restarted on another host or port (or, in tests,
     * bound an ephemeral port); the old connection to it is closed and operations in flight on it fail retryably.
     */
    public void updateAddress(int peer, InetSocketAddress address) {
        if (peer < 0 || peer >= links.length) {
            throw new IllegalArgumentException("machine " + peer + " is outside this fabric's 0.." + (links.length - 1));
        }
        links[peer].updateAddress(Objects.requireNonNull(address, "address"));
    }

    /**
     * The membership service presumes {@code peer} dead: every operation on it fails at once, retryably, with
     * "machine N at ADDRESS {@code why}", and those in flight fail now, until the peer connects to this machine again
     * or {@link #peerRejoined} is called. A paused or partitioned peer keeps its connections open, so without this
     * each operation would wait for the request timeout.
     */
    @Override
    public void presumeDead(int peer, String why) {
        if (peer != machine && peer >= 0 && peer < links.length) {
            links[peer].presumeDead(Objects.requireNonNull(why, "why"));
        }
    }

    /** The membership service sees {@code peer} alive (a new incarnation): operations on it are tried again. */
    @Override
    public void peerRejoined(int peer) {
        if (peer != machine && peer >= 0 && peer < links.length) {
            links[peer].heardFrom();
        }
    }

    /** Attaches this process's machine: only the id given at construction, once. */
    @Override
    public synchronized Endpoint attach(int machineId, MachineMemory machineMemory, MessageHandler handler) {
        if (closed) {
            throw closedError();
        }
        if (machineId != machine) {
            throw new IllegalArgumentException("this TCP fabric belongs to machine " + machine + " (one process per"
                + " machine) and cannot attach machine " + machineId);
        }
        if (endpoint != null) {
            throw new IllegalStateException("machine " + machine + " is already attached to this fabric");
        }
        this.memory = Objects.requireNonNull(machineMemory, "memory");
        TcpEndpoint e = new TcpEndpoint(this);
        inbox.start(Objects.requireNonNull(handler, "handler"));
        this.endpoint = e;
        return e;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        serverChannel.close();
        for (PeerLink link : links) {
            link.close();
        }
        // Awaiting termination matters: once close returns, no event loop touches the registered memory again, so
        // the caller may free it.
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        inbox.close();
    }

    // ---------------------------------------------------------------- for the package

    boolean isClosed() {
        return closed;
    }

    FabricException closedError() {
        return new FabricException("the TCP fabric of machine " + machine + " is closed", false);
    }

    MachineMemory memory() {
        return memory;
    }

    Inbox inbox() {
        return inbox;
    }

    ClusterSecret secret() {
        return secret;
    }

    TcpFabricOptions options() {
        return options;
    }

    int maxFrame() {
        return maxFrame;
    }

    PeerLink link(int peer) {
        return links[peer];
    }

    ChannelFuture connect(InetSocketAddress address, ClientHandler handler) {
        if (tls == null) {
            return clientBootstrap.clone().handler(handler).connect(address);
        }
        return clientBootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(tls.clientHandler(ch.alloc(), address, options.handshakeTimeout()), handler);
            }
        }).connect(address);
    }
}
