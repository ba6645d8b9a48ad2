package io.bulwark.web.internal;

import io.bulwark.web.api.ApiProblem;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps a flood of logins from slowing the appliance or locking its administrators out: each client
 * address has a budget of attempts (a burst of {@value #BURST}, then one every {@value
 * #REFILL_SECONDS} s), and an attempt over it is refused (429, with Retry-After, answered after a
 * second's pause) before any password is hashed; the password hashing runs on workers of its own,
 * never on those that answer the rest of the API; and addresses that logged in successfully before
 * have a lane of their own, so that an administrator's login does not queue behind a flood from
 * elsewhere. The other lane takes at most {@value #OTHERS_PER_SECOND} attempts a second from all
 * new addresses together and refuses attempts beyond that, or beyond {@value #MAX_WAITING} waiting
 * (503), so that a flood from many addresses costs a fraction of one core. An attempt answered 503
 * (the appliance still starting, a service it needs being updated) does not count against the
 * client's budget. Thread-safe; {@link #admit} runs on the event loop.
 */
final class LoginGate implements AutoCloseable {
  static final int BURST = 10;
  static final int REFILL_SECONDS = 3;
  static final int MAX_WAITING = 32;
  static final int OTHERS_PER_SECOND = 8;
  static final long REFUSAL_PAUSE_MILLIS = 1000;
  private static final ApiProblem BUSY =
      ApiProblem.busy("the login service is busy; try again in a few seconds");
  private static final int MAX_ADDRESSES = 16_384;
  private static final int MAX_KNOWN = 1_024;

  private final Vertx vertx;
  private final Clock clock;
  private final WorkerExecutor known;
  private final WorkerExecutor others;
  private final AtomicInteger waiting = new AtomicInteger();
  private final Bucket othersBudget;
  private final Map<String, Bucket> buckets =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
          return size() > MAX_ADDRESSES;
        }
      };
  private final Map<String, Boolean> knownAddresses =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > MAX_KNOWN;
        }
      };

  LoginGate(Vertx vertx, Clock clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.othersBudget = new Bucket(2 * OTHERS_PER_SECOND, clock.millis());
    this.known = vertx.createSharedWorkerExecutor("bulwark-login-known", 1, 30, TimeUnit.SECONDS);
    int cores = Runtime.getRuntime().availableProcessors();
    this.others =
        vertx.createSharedWorkerExecutor(
            "bulwark-login", Math.max(1, cores / 2), 30, TimeUnit.SECONDS);
  }

  /**
   * Returns a route handler that runs {@code login} (which hashes a password) on the login workers
   * if the client's address is within its budget, and refuses it otherwise.
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
      // An attempt the appliance could not serve (503: still starting, a service it needs is
      // being updated, the login lane is full) is not the client's: it gets its attempt back.
      ctx.addHeadersEndHandler(
          v -> {
            if (ctx.response().getStatusCode() == 503) {
              giveBack(source);
            }
          });
      boolean knownSource = isKnown(source);
      if (!knownSource) {
        if (!takeOthers()) {
          refuse(ctx, BUSY);
          return;
        }
        if (waiting.incrementAndGet() > MAX_WAITING) {
          waiting.decrementAndGet();
          refuse(ctx, BUSY);
          return;
        }
      }
      (knownSource ? known : others)
          .executeBlocking(
              () -> {
                try {
                  login.handle(ctx);
                } catch (RuntimeException e) {
                  ctx.fail(e);
                } finally {
                  if (!knownSource) {
                    waiting.decrementAndGet();
                  }
                }
                return null;
              },
              false)
          .onFailure(ctx::fail);
    };
  }

  /**
   * Answers a refusal after a pause (the connection waits, which costs nothing), so that a client
   * that retries at once cannot turn refusals into a flood of their own.
   */
  private void refuse(RoutingContext ctx, ApiProblem problem) {
    vertx.setTimer(REFUSAL_PAUSE_MILLIS, id -> ctx.fail(problem));
  }

  /** Remembers that {@code source} logged in: its later logins take the known lane. */
  synchronized void succeeded(String source) {
    knownAddresses.put(source, Boolean.TRUE);
  }

  /**
   * Returns true for an address that logged in before, and for the appliance's own console
   * (loopback), which always has the known lane.
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

  /** Takes an attempt from the budget of every address not known yet. */
  private synchronized boolean takeOthers() {
    return othersBudget.take(clock.millis(), 2 * OTHERS_PER_SECOND, 1000L / OTHERS_PER_SECOND) == 0;
  }

  @Override
  public void close() {
    known.close();
    others.close();
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
