package io.bulwark.web.internal;

import io.bulwark.api.health.Finding;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /api/v1/events}: the server-sent event stream the UI stays live with. Sends {@code
 * event: finding} with the finding's JSON whenever the health engine reports a change, {@code
 * event: capacity} with the capacity account on connect and periodically, and a comment as
 * heartbeat so that proxies and browsers keep the connection open. Thread-safe: findings arrive on
 * the health engine's thread and are only queued there.
 */
final class EventStream {
  /** How often capacity events and heartbeats go out. */
  record Timing(Duration capacityEvery, Duration heartbeatEvery) {
    static final Timing STANDARD = new Timing(Duration.ofSeconds(5), Duration.ofSeconds(15));
  }

  /** Frames a client may fall behind before it is dropped. */
  static final int MAX_PENDING_FRAMES = 512;

  private static final Logger LOG = System.getLogger(EventStream.class.getName());

  private final Vertx vertx;
  private final AdminServices services;
  private final Timing timing;
  private final int maxPending;
  private final Set<EventSubscriber> subscribers = ConcurrentHashMap.newKeySet();
  private volatile long capacityTimer = -1;
  private volatile long heartbeatTimer = -1;

  EventStream(Vertx vertx, AdminServices services, Timing timing, int maxPending) {
    this.vertx = vertx;
    this.services = services;
    this.timing = timing;
    this.maxPending = maxPending;
  }

  /** Starts the periodic capacity events and heartbeats. */
  void start() {
    capacityTimer = vertx.setPeriodic(timing.capacityEvery().toMillis(), id -> publishCapacity());
    heartbeatTimer =
        vertx.setPeriodic(timing.heartbeatEvery().toMillis(), id -> broadcast(": heartbeat\n\n"));
  }

  /** Stops the timers and closes every client's stream. */
  void stop() {
    vertx.cancelTimer(capacityTimer);
    vertx.cancelTimer(heartbeatTimer);
    subscribers.forEach(EventSubscriber::close);
    subscribers.clear();
  }

  /** Route handler: opens a stream for this request. Called on the event loop. */
  void open(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    HttpServerResponse response = ctx.response();
    response
        .setChunked(true)
        .putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .putHeader("X-Accel-Buffering", "no");
    Context context = Vertx.currentContext();
    EventSubscriber subscriber =
        new EventSubscriber(
            response,
            context,
            maxPending,
            String.valueOf(request.remoteAddress()),
            subscribers::remove);
    subscribers.add(subscriber);
    response.closeHandler(v -> subscriber.disconnected());
    response.exceptionHandler(e -> subscriber.disconnected());
    response.writeHead();
    subscriber.offer("retry: 5000\n\n");
    vertx
        .executeBlocking(() -> OverviewResource.capacity(services))
        .onSuccess(report -> subscriber.offer(frame("capacity", ApiJson.capacity(report).encode())))
        .onFailure(
            e ->
                LOG.log(
                    Level.WARNING,
                    "Could not read the capacity account for a new event stream"
                        + " client; it gets the next periodic one. Check the health bundle.",
                    e));
  }

  /** Sends the finding to every client. Called on the health engine's thread; returns at once. */
  void publishFinding(Finding finding) {
    if (!subscribers.isEmpty()) {
      broadcast(frame("finding", ApiJson.finding(finding).encode()));
    }
  }

  /** Returns how many clients are connected. */
  int subscriberCount() {
    return subscribers.size();
  }

  private void publishCapacity() {
    if (subscribers.isEmpty()) {
      return;
    }
    vertx
        .executeBlocking(() -> ApiJson.capacity(OverviewResource.capacity(services)).encode())
        .onSuccess(json -> broadcast(frame("capacity", json)))
        .onFailure(
            e ->
                LOG.log(
                    Level.WARNING,
                    "Could not read the capacity account for the event stream;"
                        + " retrying in "
                        + timing.capacityEvery().toSeconds()
                        + " s. Check the health bundle.",
                    e));
  }

  private void broadcast(String frame) {
    for (EventSubscriber s : subscribers) {
      s.offer(frame);
    }
  }

  /** Returns one SSE frame; the JSON is encoded on one line, so one data line carries it. */
  static String frame(String event, String json) {
    return "event: " + event + "\ndata: " + json + "\n\n";
  }
}
