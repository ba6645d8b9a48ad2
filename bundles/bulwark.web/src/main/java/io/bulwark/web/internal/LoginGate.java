package io.bulwark.web.internal;

import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.internal.LoginQueue.Standing;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a flood of logins from slowing the appliance or locking its administrators out: each client
 * address has a budget of attempts (a burst of {@value #BURST}, then one every {@value
 * #REFILL_SECONDS} s), and an attempt over it is refused (429, with Retry-After, answered after a
 * second's pause) before any password is hashed; the password hashing runs on a few workers of its
 * own, never on those that answer the rest of the API, in a {@link LoginQueue} that serves the
 * clients that have not failed first: the console and addresses that logged in before, then new
 * addresses naming a user with no refused login in the last {@value #FAILURE_MEMORY_MINUTES}
 * minutes, then the addresses (or, from new addresses, the user names) with one; a login that
 * failed while it waited queues again behind the clean ones. Failing clients get at most half of
 * the cores, at most {@value #FAILING_PER_SECOND} attempts a second and {@value #MAX_WAITING}
 * waiting together: beyond that they are refused (503, with Retry-After). So a flood from many
 * addresses never holds up a client that has not failed. An attempt answered 503 (the appliance
 * still starting, a service it needs being updated) does not count against the client's budget.
 * Thread-safe; {@link #admit} runs on the event loop.
 */
final class LoginGate implements AutoCloseable {
  static final int BURST = 10;
  static final int REFILL_SECONDS = 3;
  static final int MAX_WAITING = 32;
  static final int FAILING_PER_SECOND = 8;
  static final int FAILURE_MEMORY_MINUTES = 15;
  static final long REFUSAL_PAUSE_MILLIS = 1000;
  private static final ApiProblem BUSY =
      ApiProblem.busy("the login service is busy; try again in a few seconds");
  private static final int MAX_ADDRESSES = 16_384;
  private static final int MAX_KNOWN = 1_024;

  private final Vertx vertx;
  private final Clock clock;
  private final WorkerExecutor workers;
  private final LoginQueue queue;
  private final Bucket failingBudget;
  private final Map<String, Bucket> buckets = lru(MAX_ADDRESSES);
  private final Map<String, Boolean> knownAddresses = lru(MAX_KNOWN);
  private final Map<String, Long> lastFailure = lru(MAX_ADDRESSES);
  private final Map<String, Long> lastUserFailure = lru(MAX_ADDRESSES);

  LoginGate(Vertx vertx, Clock clock) {
    this(vertx, clock, places(Runtime.getRuntime().availableProcessors()));
  }

  LoginGate(Vertx vertx, Clock clock, int places) {
    this.vertx = vertx;
    this.clock = clock;
    this.failingBudget = new Bucket(2 * FAILING_PER_SECOND, clock.millis());
    this.queue = new LoginQueue(places, MAX_WAITING);
    this.workers = vertx.createSharedWorkerExecutor("bulwark-login", places, 30, TimeUnit.SECONDS);
  }

  /**
   * Returns how many password checks run at once on {@code cores} cores: half of them for failing
   * clients, and one more kept for those that have not failed (2 on two cores).
   */
  static int places(int cores) {
    return cores < 2 ? 1 : cores / 2 + 1;
  }

  /**
   * Returns a route handler that queues {@code login} (which hashes a password) for the login
   * workers if the client's address is within its budget, and refuses it otherwise.
   */
  Handler<RoutingContext> admit(Handler<RoutingContext> login) {
    return ctx -> {
      String source = AccessControl.source(ctx);
      long wait = take(source);
      if (wait > 0) {
        refuse(
            ctx,
            ApiProblem.tooManyRequests(
                "too many login attempts from " + source + "; try again in " + wait + " s", wait));
        return;
      }
      String user = userOf(ctx);
      ctx.addHeadersEndHandler(v -> answered(source, user, ctx.response().getStatusCode()));
      Standing standing = standing(source, user);
      if (standing == Standing.FAILING && !takeFailing()) {
        refuse(ctx, BUSY);
        return;
      }
      queue(ctx, login, standing, source, user);
    };
  }

  private void queue(
      RoutingContext ctx,
      Handler<RoutingContext> login,
      Standing standing,
      String source,
      String user) {
    Context context = vertx.getOrCreateContext();
    boolean queued =
        queue.submit(
            standing,
            done -> context.runOnContext(v -> check(ctx, login, done, standing, source, user)));
    if (!queued) {
      refuse(ctx, BUSY);
    }
  }

  /**
   * Runs {@code login} on a login worker, unless its client went away while it waited, or failed
   * meanwhile (its address, or its user name from an address that is not known): then it queues
   * again behind the clients that have not failed. On the event loop of its request.
   */
  private void check(
      RoutingContext ctx,
      Handler<RoutingContext> login,
      Runnable done,
      Standing standing,
      String source,
      String user) {
    if (ctx.response().closed()) {
      done.run();
      return;
    }
    if (standing != Standing.FAILING && standing(source, user) == Standing.FAILING) {
      done.run();
      queue(ctx, login, Standing.FAILING, source, user);
      return;
    }
    workers
        .executeBlocking(
            () -> {
              try {
                login.handle(ctx);
              } catch (RuntimeException e) {
                ctx.fail(e);
              } finally {
                done.run();
              }
              return null;
            },
            false)
        .onFailure(
            e -> {
              done.run();
              ctx.fail(e);
            });
  }

  /**
   * Hears the status of an attempt: a refused login marks the address and the user name as failing;
   * an attempt the appliance could not serve (503: still starting, a service it needs is being
   * updated, the login queue is full) is not the client's, and it gets its attempt back.
   */
  private void answered(String source, String user, int status) {
    if (status == 401) {
      failed(source, user);
    } else if (status == 503) {
      giveBack(source);
    }
  }

  /**
   * Answers a refusal after a pause (the connection waits, which costs nothing), so that a client
   * that retries at once cannot turn refusals into a flood of their own.
   */
  private void refuse(RoutingContext ctx, ApiProblem problem) {
    vertx.setTimer(REFUSAL_PAUSE_MILLIS, id -> ctx.fail(problem));
  }

  /**
   * Remembers that {@code source} logged in: its later logins are served first, and its wrong
   * passwords before are forgotten.
   */
  synchronized void succeeded(String source) {
    knownAddresses.put(source, Boolean.TRUE);
    lastFailure.remove(source);
  }

  /**
   * Remembers that {@code source} gave a wrong password (or another refused login) for {@code user}
   * (empty if none was named) now.
   */
  synchronized void failed(String source, String user) {
    lastFailure.put(source, clock.millis());
    if (!user.isEmpty()) {
      lastUserFailure.put(user, clock.millis());
    }
  }

  /**
   * Returns where a login from {@code source} for {@code user} (empty if none was named) stands in
   * the login queue: behind the others if the address failed recently; first if it is known; behind
   * the clean ones if the user name failed recently. A failed user name does not demote a known
   * address, so that whoever guesses at the administrator's name cannot push the administrator at
   * the console behind the flood.
   */
  synchronized Standing standing(String source, String user) {
    if (recent(lastFailure.get(source))) {
      return Standing.FAILING;
    }
    if (isKnown(source)) {
      return Standing.KNOWN;
    }
    return recent(lastUserFailure.get(user)) ? Standing.FAILING : Standing.CLEAN;
  }

  private boolean recent(Long failedAt) {
    return failedAt != null
        && clock.millis() - failedAt < TimeUnit.MINUTES.toMillis(FAILURE_MEMORY_MINUTES);
  }

  /** Returns the user name a login names, or an empty string (the login refuses the body). */
  private static String userOf(RoutingContext ctx) {
    try {
      return ApiRequest.text(ApiRequest.body(ctx), "user", "");
    } catch (ApiProblem e) {
      return "";
    }
  }

  /**
   * Returns true for an address that logged in before, and for the appliance's own console
   * (loopback).
   */
  synchronized boolean isKnown(String source) {
    return knownAddresses.containsKey(source) || isLoopback(source);
  }

  /** The console's addresses: 127.0.0.1 and ::1 (the rest of 127/8 is not the console). */
  private static boolean isLoopback(String source) {
    return source.equals("127.0.0.1") || source.equals("::1") || source.equals("0:0:0:0:0:0:0:1");
  }

  /** Takes an attempt from the budget of {@code source}: 0, or the seconds until one is left. */
  synchronized long take(String source) {
    long now = clock.millis();
    Bucket b = buckets.computeIfAbsent(source, s -> new Bucket(BURST, now));
    long wait = b.take(now, BURST, REFILL_SECONDS * 1000L);
    return wait == 0 ? 0 : Math.max(1, (wait + 999) / 1000);
  }

  /** Returns an attempt taken by {@link #take} to the budget of {@code source}. */
  synchronized void giveBack(String source) {
    Bucket b = buckets.get(source);
    if (b != null && b.tokens < BURST) {
      b.tokens++;
    }
  }

  /** Takes an attempt from the budget of every failing address together. */
  private synchronized boolean takeFailing() {
    return failingBudget.take(clock.millis(), 2 * FAILING_PER_SECOND, 1000L / FAILING_PER_SECOND)
        == 0;
  }

  @Override
  public void close() {
    workers.close();
  }

  private static <V> Map<String, V> lru(int max) {
    return new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > max;
      }
    };
  }

  /** A token bucket: {@code tokens} left, refilled one per interval since {@code at}. */
  private static final class Bucket {
    int tokens;
    long at;

    Bucket(int tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }

    /** Takes a token: returns 0, or the milliseconds until one is there. */
    long take(long now, int capacity, long refillMillis) {
      long earned = (now - at) / refillMillis;
      if (earned > 0) {
        tokens = (int) Math.min(capacity, tokens + earned);
        at += earned * refillMillis;
      }
      if (tokens == capacity) {
        at = now;
      }
      if (tokens > 0) {
        tokens--;
        return 0;
      }
      return Math.max(1, at + refillMillis - now);
    }
  }
}
