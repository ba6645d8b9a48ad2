package io.bulwark.runtime.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.transport.Transport;
import java.util.concurrent.ThreadFactory;

/**
 * Vert.x's own transport (NIO) with one addition: every listening socket gets {@link AcceptGate},
 * so that connections are admitted or refused as they are accepted. Everything else is the
 * delegate's.
 */
final class GuardedTransport implements io.vertx.core.transport.Transport {
  private final io.vertx.core.transport.Transport base;
  private final Transport implementation;

  GuardedTransport(io.vertx.core.transport.Transport base, ChannelHandler gate) {
    this.base = base;
    this.implementation = new Guarded(base.implementation(), gate);
  }

  @Override
  public String name() {
    return base.name();
  }

  @Override
  public boolean available() {
    return base.available();
  }

  @Override
  public Throwable unavailabilityCause() {
    return base.unavailabilityCause();
  }

  @Override
  public Transport implementation() {
    return implementation;
  }

  /** The delegating SPI implementation. */
  private static final class Guarded implements Transport {
    private final Transport delegate;
    private final ChannelHandler gate;

    Guarded(Transport delegate, ChannelHandler gate) {
      this.delegate = delegate;
      this.gate = gate;
    }

    @Override
    public void configure(NetServerOptions options, boolean domainSocket, ServerBootstrap b) {
      delegate.configure(options, domainSocket, b);
      if (!domainSocket) {
        b.handler(gate);
      }
    }

    @Override
    public boolean supportsDomainSockets() {
      return delegate.supportsDomainSockets();
    }

    @Override
    public boolean supportFileRegion() {
      return delegate.supportFileRegion();
    }

    @Override
    public boolean isAvailable() {
      return delegate.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
      return delegate.unavailabilityCause();
    }

    @Override
    public java.net.SocketAddress convert(SocketAddress address) {
      return delegate.convert(address);
    }

    @Override
    public SocketAddress convert(java.net.SocketAddress address) {
      return delegate.convert(address);
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
      return delegate.ioHandlerFactory();
    }

    @Override
    public EventLoopGroup eventLoopGroup(
        int type, int nThreads, ThreadFactory threadFactory, int ioRatio) {
      return delegate.eventLoopGroup(type, nThreads, threadFactory, ioRatio);
    }

    @Override
    public DatagramChannel datagramChannel() {
      return delegate.datagramChannel();
    }

    @Override
    @SuppressWarnings("deprecation")
    public DatagramChannel datagramChannel(InternetProtocolFamily family) {
      return delegate.datagramChannel(family);
    }

    @Override
    public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
      return delegate.channelFactory(domainSocket);
    }

    @Override
    public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
      return delegate.serverChannelFactory(domainSocket);
    }

    @Override
    public void configure(DatagramChannel channel, DatagramSocketOptions options) {
      delegate.configure(channel, options);
    }

    @Override
    public void configure(
        ClientOptionsBase options, int connectTimeout, boolean domainSocket, Bootstrap bootstrap) {
      delegate.configure(options, connectTimeout, domainSocket, bootstrap);
    }
  }
}
