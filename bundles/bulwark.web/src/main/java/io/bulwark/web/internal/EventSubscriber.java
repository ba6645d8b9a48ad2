package io.bulwark.web.internal;

import io.bulwark.api.security.Role;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One browser connected to the event stream. Frames offered from any thread wait in a bounded queue
 * and are written on the connection's event loop while its socket takes them; a client that falls
 * more than {@code maxPending} frames behind is dropped (its connection closed) so that a slow
 * browser never holds memory. The browser's EventSource reconnects by itself.
 */
final class EventSubscriber {
  private static final Logger LOG = System.getLogger(EventSubscriber.class.getName());

  private final HttpServerResponse response;
  private final Context context;
  private final int maxPending;
  private final String client;
  private final Role role;
  private final Consumer<EventSubscriber> onClose;
  private final Queue<String> pending = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pendingCount = new AtomicInteger();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  EventSubscriber(
      HttpServerResponse response,
      Context context,
      int maxPending,
      String client,
      Role role,
      Consumer<EventSubscriber> onClose) {
    this.response = response;
    this.context = context;
    this.maxPending = maxPending;
    this.client = client;
    this.role = role;
    this.onClose = onClose;
  }

  /** Returns the role of the client's caller: what topics it receives. */
  Role role() {
    return role;
  }

  /** Queues a frame for this client; never blocks. Called from any thread. */
  void offer(String frame) {
    if (closed.get()) {
      return;
    }
    if (pendingCount.incrementAndGet() > maxPending) {
      LOG.log(
          Level.WARNING,
          "Dropped event stream client "
              + client
              + ": it fell "
              + maxPending
              + " events behind (slow network or a suspended tab); its browser reconnects by itself.");
      close();
      return;
    }
    pending.add(frame);
    scheduleDrain();
  }

  /** Closes the connection and forgets the queued frames. Called from any thread; idempotent. */
  void close() {
    if (closed.compareAndSet(false, true)) {
      pending.clear();
      onClose.accept(this);
      context.runOnContext(
          v -> {
            if (!response.closed()) {
              response.reset();
            }
          });
    }
  }

  /** Marks the client gone after its connection closed. */
  void disconnected() {
    if (closed.compareAndSet(false, true)) {
      pending.clear();
      onClose.accept(this);
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  private void scheduleDrain() {
    if (draining.compareAndSet(false, true)) {
      context.runOnContext(v -> drain());
    }
  }

  private void drain() {
    while (!closed.get() && !response.closed()) {
      if (response.writeQueueFull()) {
        response.drainHandler(v -> drain());
        return;
      }
      String frame = pending.poll();
      if (frame == null) {
        break;
      }
      pendingCount.decrementAndGet();
      response.write(frame);
    }
    draining.set(false);
    if (!pending.isEmpty() && !closed.get()) {
      scheduleDrain();
    }
  }
}
