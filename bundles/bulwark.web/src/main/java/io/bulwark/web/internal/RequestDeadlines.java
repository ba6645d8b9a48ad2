package io.bulwark.web.internal;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Closes the connections that keep the admin plane waiting, so that a client that opens a
 * connection and then trickles (or never sends) its request holds it for seconds, not for ever: a
 * connection must send a request's headers within {@code headerSeconds} of opening, the request's
 * body within {@code bodySeconds} of its headers, and a connection with no request in progress is
 * closed after {@code keepAliveSeconds}. A request being answered (the event stream, an export) has
 * no deadline of its own; the listener's idle timeout closes a peer that went silent. Thread-safe;
 * each connection's timer runs on its event loop.
 */
final class RequestDeadlines {
  private static final String BODY_READ = "bulwark.bodyRead";

  private final Vertx vertx;
  private final ConnectionOptions options;
  private final Map<HttpConnection, Deadline> open = new ConcurrentHashMap<>();
  private final LongAdder closedWaitingForHeaders = new LongAdder();
  private final LongAdder closedWaitingForBody = new LongAdder();
  private final LongAdder closedKeptAlive = new LongAdder();

  RequestDeadlines(Vertx vertx, ConnectionOptions options) {
    this.vertx = vertx;
    this.options = options;
  }

  /** The server's connection handler: starts the wait for the first request's headers. */
  void connected(HttpConnection connection) {
    Deadline deadline = new Deadline(connection);
    open.put(connection, deadline);
    connection.closeHandler(
        v -> {
          open.remove(connection);
          deadline.cancel();
        });
    deadline.arm(Wait.HEADERS);
  }

  /** The router's first handler: a request's headers are in; its body is awaited. */
  void requestStarted(RoutingContext ctx) {
    Deadline deadline = open.get(ctx.request().connection());
    if (deadline != null) {
      deadline.started();
      ctx.addEndHandler(ar -> deadline.ended(Boolean.TRUE.equals(ctx.get(BODY_READ))));
    }
    ctx.next();
  }

  /** The handler after the body handler: the request's body is in. */
  void bodyRead(RoutingContext ctx) {
    Deadline deadline = open.get(ctx.request().connection());
    if (deadline != null && !Boolean.TRUE.equals(ctx.get(BODY_READ))) {
      ctx.put(BODY_READ, Boolean.TRUE);
      deadline.read();
    }
    ctx.next();
  }

  /** Returns the connections closed so far for keeping a request's headers waiting. */
  long closedWaitingForHeaders() {
    return closedWaitingForHeaders.sum();
  }

  /** Returns the connections closed so far for keeping a request's body waiting. */
  long closedWaitingForBody() {
    return closedWaitingForBody.sum();
  }

  /** Returns the connections closed after {@code keepAliveSeconds} without a request. */
  long closedKeptAlive() {
    return closedKeptAlive.sum();
  }

  /** Returns the connections open now. */
  int openConnections() {
    return open.size();
  }

  private enum Wait {
    HEADERS,
    BODY,
    NEXT_REQUEST
  }

  /** One connection's requests in progress and the timer that will close it. */
  private final class Deadline {
    private final HttpConnection connection;
    private int inProgress;
    private int unread;
    private long timer = -1;

    Deadline(HttpConnection connection) {
      this.connection = connection;
    }

    synchronized void started() {
      inProgress++;
      unread++;
      arm(Wait.BODY);
    }

    synchronized void read() {
      unread = Math.max(0, unread - 1);
      if (unread == 0) {
        cancel();
      }
    }

    synchronized void ended(boolean wasRead) {
      inProgress = Math.max(0, inProgress - 1);
      if (!wasRead) {
        unread = Math.max(0, unread - 1);
      }
      if (inProgress == 0) {
        arm(Wait.NEXT_REQUEST);
      } else if (unread == 0) {
        cancel();
      }
    }

    synchronized void arm(Wait wait) {
      cancel();
      long seconds =
          switch (wait) {
            case HEADERS -> options.headerSeconds();
            case BODY -> options.bodySeconds();
            case NEXT_REQUEST -> options.keepAliveSeconds();
          };
      timer = vertx.setTimer(TimeUnit.SECONDS.toMillis(seconds), id -> expire(id, wait));
    }

    synchronized void cancel() {
      if (timer >= 0) {
        vertx.cancelTimer(timer);
        timer = -1;
      }
    }

    private void expire(long id, Wait wait) {
      synchronized (this) {
        if (id != timer) {
          return;
        }
        timer = -1;
      }
      (switch (wait) {
            case HEADERS -> closedWaitingForHeaders;
            case BODY -> closedWaitingForBody;
            case NEXT_REQUEST -> closedKeptAlive;
          })
          .increment();
      connection.close();
    }
  }
}
