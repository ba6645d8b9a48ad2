package io.bulwark.web.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/events}: the server-sent event stream the UI stays live with. Each {@link
 * EventTopic} contributed to the admin plane publishes into it; a client receives the topics its
 * role admits, each as {@code event: <topic>} with one JSON line, the current state of each when it
 * connects, and a comment as heartbeat so that proxies and browsers keep the connection open.
 * Thread-safe: topics publish from their own threads and only queue.
 */
final class EventHub {
  /** Frames a client may fall behind before it is dropped. */
  static final int MAX_PENDING_FRAMES = 512;

  /** How often a heartbeat goes out. */
  static final Duration HEARTBEAT = Duration.ofSeconds(15);

  private static final Logger LOG = System.getLogger(EventHub.class.getName());
  private static final Pattern TOPIC = Pattern.compile("[a-z][a-z0-9-]{0,31}");

  private final Vertx vertx;
  private final Duration heartbeat;
  private final int maxPending;
  private final Set<EventSubscriber> subscribers = ConcurrentHashMap.newKeySet();
  private final Map<EventTopic, Boolean> open = new ConcurrentHashMap<>();
  private volatile long heartbeatTimer = -1;

  EventHub(Vertx vertx, Duration heartbeat, int maxPending) {
    this.vertx = vertx;
    this.heartbeat = heartbeat;
    this.maxPending = maxPending;
  }

  /** Starts the heartbeats. */
  void start() {
    heartbeatTimer = vertx.setPeriodic(heartbeat.toMillis(), id -> broadcast(": heartbeat\n\n"));
  }

  /** Stops the heartbeats, closes every topic this hub opened and every client's stream. */
  void stop() {
    vertx.cancelTimer(heartbeatTimer);
    for (EventTopic topic : List.copyOf(open.keySet())) {
      close(topic);
    }
    subscribers.forEach(EventSubscriber::close);
    subscribers.clear();
  }

  /** Opens {@code topic}: what it publishes goes to the clients its roles admit. */
  void open(EventTopic topic) {
    String name = topic.name();
    if (name == null || !TOPIC.matcher(name).matches() || topic.roles().isEmpty()) {
      LOG.log(
          Level.WARNING,
          "Ignored the event topic ''{0}'' of {1}: a topic is 1-32 of a-z, 0-9 and '-' and names"
              + " its roles",
          name,
          topic.getClass().getName());
      return;
    }
    if (open.putIfAbsent(topic, Boolean.TRUE) != null) {
      return;
    }
    Set<Role> roles = Set.copyOf(topic.roles());
    EventSink sink =
        json -> {
          if (open.containsKey(topic) && !subscribers.isEmpty()) {
            broadcast(frame(name, json), roles);
          }
        };
    try {
      topic.open(sink);
    } catch (RuntimeException e) {
      open.remove(topic);
      LOG.log(Level.WARNING, "The event topic " + name + " failed to open; it is left out", e);
    }
  }

  /** Closes {@code topic}; it publishes no more. */
  void close(EventTopic topic) {
    if (open.remove(topic) != null) {
      try {
        topic.close();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "The event topic " + topic.name() + " failed to close", e);
      }
    }
  }

  /** Returns the names of the open topics {@code role} receives, sorted. */
  List<String> topics(Role role) {
    Set<String> names = new TreeSet<>();
    open.keySet()
        .forEach(
            t -> {
              if (t.roles().contains(role)) {
                names.add(t.name());
              }
            });
    return new ArrayList<>(names);
  }

  /** Route handler: opens a stream for this request. Called on the event loop. */
  void subscribe(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    response
        .setChunked(true)
        .putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .putHeader("X-Accel-Buffering", "no");
    Context context = Vertx.currentContext();
    Role role = ApiRequest.caller(ctx).role();
    EventSubscriber subscriber =
        new EventSubscriber(
            response,
            context,
            maxPending,
            String.valueOf(ctx.request().remoteAddress()),
            role,
            subscribers::remove);
    subscribers.add(subscriber);
    response.closeHandler(v -> subscriber.disconnected());
    response.exceptionHandler(e -> subscriber.disconnected());
    response.writeHead();
    subscriber.offer("retry: 5000\n\n");
    for (EventTopic topic : open.keySet()) {
      if (!topic.roles().contains(role)) {
        continue;
      }
      vertx
          .executeBlocking(topic::snapshot, false)
          .onSuccess(
              json -> {
                if (json != null) {
                  subscriber.offer(frame(topic.name(), json));
                }
              })
          .onFailure(
              e ->
                  LOG.log(
                      Level.WARNING,
                      "Could not read the current "
                          + topic.name()
                          + " for a new event stream client; it gets the next event",
                      e));
    }
  }

  /** Returns how many clients are connected. */
  int subscriberCount() {
    return subscribers.size();
  }

  private void broadcast(String frame) {
    for (EventSubscriber s : subscribers) {
      s.offer(frame);
    }
  }

  private void broadcast(String frame, Set<Role> roles) {
    for (EventSubscriber s : subscribers) {
      if (roles.contains(s.role())) {
        s.offer(frame);
      }
    }
  }

  /** Returns one SSE frame; the JSON is encoded on one line, so one data line carries it. */
  static String frame(String event, String json) {
    return "event: " + event + "\ndata: " + json + "\n\n";
  }
}
