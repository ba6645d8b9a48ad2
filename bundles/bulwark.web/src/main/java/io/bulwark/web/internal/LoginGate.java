package io.bulwark.web.internal;

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
 * #REFILL_SECONDS} s), and an attempt over it is refused at once (429, with Retry-After) before any
 * password is hashed; the password hashing runs on workers of its own, never on those that answer
 * the rest of the API; and addresses that logged in successfully before have a lane of their own,
 * so that an administrator's login does not queue behind a flood from elsewhere. The other lane
 * refuses attempts beyond {@value #MAX_WAITING} waiting (503). Thread-safe; {@link #admit} runs on
 * the event loop.
 */
final class LoginGate implements AutoCloseable {
  static final int BURST = 10;
  static final int REFILL_SECONDS = 3;
  static final int MAX_WAITING = 32;
  private static final int MAX_ADDRESSES = 16_384;
  private static final int MAX_KNOWN = 1_024;

  private final Clock clock;
  private final WorkerExecutor known;
  private final WorkerExecutor others;
  private final AtomicInteger waiting = new AtomicInteger();
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
    this.clock = clock;
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
        ctx.fail(
            ApiProblem.tooManyRequests(
                "too many login attempts from " + source + "; try again in " + wait + " s", wait));
        return;
      }
      boolean knownSource = isKnown(source);
      if (!knownSource && waiting.incrementAndGet() > MAX_WAITING) {
        waiting.decrementAndGet();
        ctx.fail(ApiProblem.busy("the login service is busy; try again in a few seconds"));
        return;
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

  /** Remembers that {@code source} logged in: its later logins take the known lane. */
  synchronized void succeeded(String source) {
    knownAddresses.put(source, Boolean.TRUE);
  }

  synchronized boolean isKnown(String source) {
    return knownAddresses.containsKey(source);
  }

  /** Takes an attempt from the budget of {@code source}: 0, or the seconds until one is left. */
  synchronized long take(String source) {
    long now = clock.millis();
    Bucket b = buckets.computeIfAbsent(source, s -> new Bucket(BURST, now));
    long refillMillis = REFILL_SECONDS * 1000L;
    long earned = (now - b.at) / refillMillis;
    if (earned > 0) {
      b.tokens = (int) Math.min(BURST, b.tokens + earned);
      b.at += earned * refillMillis;
    }
    if (b.tokens == BURST) {
      b.at = now;
    }
    if (b.tokens > 0) {
      b.tokens--;
      return 0;
    }
    return Math.max(1, (b.at + refillMillis - now + 999) / 1000);
  }

  @Override
  public void close() {
    known.close();
    others.close();
  }

  private static final class Bucket {
    int tokens;
    long at;

    Bucket(int tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }
  }
}
