package io.bulwark.runtime.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;

/**
 * The handler on every listening socket of the shared Vert.x: sees each accepted connection before
 * Vert.x sets it up (before its TLS handshake), asks {@link ConnectionAdmission} whether it may
 * stay, and closes it at once if not. Runs on the acceptor thread.
 */
@ChannelHandler.Sharable
final class AcceptGate extends ChannelInboundHandlerAdapter {
  private final ConnectionAdmission admission;

  AcceptGate(ConnectionAdmission admission) {
    this.admission = admission;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof Channel child) {
      int port =
          ctx.channel().localAddress() instanceof InetSocketAddress local ? local.getPort() : -1;
      if (!admission.admit(port, child)) {
        child.unsafe().closeForcibly();
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }
}
