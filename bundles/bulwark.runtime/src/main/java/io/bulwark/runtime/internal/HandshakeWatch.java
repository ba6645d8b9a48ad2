package io.bulwark.runtime.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.AbstractSniHandler;
import io.netty.handler.ssl.SslHandler;

/**
 * The first handler of an admitted connection on a capped listener, until its TLS handshake is
 * done: tells its {@link AdmittedConnection} when bytes arrive (so that it is not idle) and when
 * the handshake completes, then leaves the pipeline. On a listener without TLS (no {@link
 * SslHandler} once the first bytes arrive, nor an SNI handler about to install one) the first bytes
 * count as the handshake. Runs on the connection's event loop; one per connection.
 */
final class HandshakeWatch extends ChannelInboundHandlerAdapter {
  private final AdmittedConnection connection;
  private boolean watching;

  HandshakeWatch(AdmittedConnection connection) {
    this.connection = connection;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    connection.activity();
    boolean plain = false;
    if (!watching) {
      SslHandler tls = ctx.pipeline().get(SslHandler.class);
      if (tls != null) {
        watching = true;
        tls.handshakeFuture()
            .addListener(
                handshake -> {
                  if (handshake.isSuccess()) {
                    done(ctx);
                  }
                });
      } else {
        plain = ctx.pipeline().get(AbstractSniHandler.class) == null;
      }
    }
    ctx.fireChannelRead(msg);
    if (plain) {
      watching = true;
      done(ctx);
    }
  }

  private void done(ChannelHandlerContext ctx) {
    connection.handshakeDone();
    if (!ctx.isRemoved()) {
      ctx.pipeline().remove(this);
    }
  }
}
