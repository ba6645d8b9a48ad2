package io.bulwark.notify.internal;

import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Delivers one channel's outbox on a thread of its own, oldest first, in batches of what its sender
 * takes; a failure waits 1 s, 2 s, 4 s… up to 5 min before the next attempt (the oldest
 * notification first again, so order holds). A "send test" goes ahead of the queue. Never touches
 * the health engine's thread: a receiver that hangs costs this channel its sender's timeouts and
 * nothing else.
 */
final class ChannelWorker implements Runnable {
  private static final Logger LOG = System.getLogger(ChannelWorker.class.getName());
  static final long MAX_BACKOFF_MILLIS = 300_000;

  private final ChannelDefinition channel;
  private final ChannelSender sender;
  private final Outbox outbox;
  private final Clock clock;
  private final ChannelStatus status;
  private final Thread thread;
  private CompletableFuture<Long> test;
  private Notification testNotification;
  private boolean stopped;
  private long nextAttemptMillis;

  ChannelWorker(
      ChannelDefinition channel,
      ChannelSender sender,
      Outbox outbox,
      ChannelStatus status,
      Clock clock) {
    this.channel = channel;
    this.sender = sender;
    this.outbox = outbox;
    this.status = status;
    this.clock = clock;
    this.thread = new Thread(this, "bulwark-notify-" + channel.name());
    thread.setDaemon(true);
  }

  ChannelDefinition channel() {
    return channel;
  }

  ChannelSender sender() {
    return sender;
  }

  void start() {
    thread.start();
  }

  /** Wakes the worker: something was queued. */
  synchronized void wake() {
    notifyAll();
  }

  /** Stops the worker and closes its sender; waits up to {@code waitMillis} for it. */
  void stop(long waitMillis) {
    synchronized (this) {
      stopped = true;
      if (test != null) {
        test.completeExceptionally(new IllegalStateException("the channel was changed or stopped"));
        test = null;
      }
      notifyAll();
    }
    // Never interrupted: the thread may be writing to the store, whose file an interrupt closes.
    try {
      thread.join(waitMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      sender.close();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "closing the sender of channel " + channel.name(), e);
    }
  }

  /**
   * Sends {@code n} ahead of the queue; the future completes with the milliseconds it took, or with
   * the {@link DeliveryException}.
   */
  synchronized CompletableFuture<Long> test(Notification n) {
    if (test != null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("a test of channel " + channel.name() + " is running"));
    }
    test = new CompletableFuture<>();
    testNotification = n;
    notifyAll();
    return test;
  }

  @Override
  public void run() {
    while (true) {
      CompletableFuture<Long> pendingTest;
      Notification testing;
      synchronized (this) {
        while (!stopped && test == null && !due()) {
          long wait = nextAttemptMillis - clock.millis();
          try {
            wait(Math.max(10, Math.min(wait > 0 ? wait : 1000, 1000)));
          } catch (InterruptedException e) {
            if (stopped) {
              return;
            }
          }
        }
        if (stopped) {
          return;
        }
        pendingTest = test;
        testing = testNotification;
        test = null;
        testNotification = null;
      }
      if (pendingTest != null) {
        long t0 = System.nanoTime();
        try {
          sender.send(List.of(testing));
          pendingTest.complete((System.nanoTime() - t0) / 1_000_000);
        } catch (DeliveryException | RuntimeException e) {
          pendingTest.completeExceptionally(e);
        }
        continue;
      }
      deliverOnce();
    }
  }

  private boolean due() {
    return clock.millis() >= nextAttemptMillis && outbox.waitingCount(channel.name()) > 0;
  }

  private void deliverOnce() {
    List<OutboxEntry> batch = outbox.take(channel.name(), Math.max(1, sender.maxBatch()));
    if (batch.isEmpty()) {
      return;
    }
    List<Notification> notifications = batch.stream().map(OutboxEntry::notification).toList();
    try {
      sender.send(notifications);
    } catch (DeliveryException e) {
      outbox.release(batch);
      if (e.retryable()) {
        failed(e.getMessage(), batch.size());
      } else {
        giveUp(batch, e.getMessage());
      }
      return;
    } catch (RuntimeException e) {
      outbox.release(batch);
      failed("the sender failed: " + e, batch.size());
      LOG.log(Level.WARNING, "Channel " + channel.name() + ": the sender failed", e);
      return;
    }
    try {
      outbox.delivered(batch);
    } catch (RuntimeException e) {
      // Delivered but not removed: sent again after the store recovers (at least once).
      outbox.release(batch);
      nextAttemptMillis = clock.millis() + 5_000;
      LOG.log(
          Level.WARNING,
          "Channel {0}: {1} notification(s) were delivered but the store could not record it ({2});"
              + " they will be sent again.",
          channel.name(),
          batch.size(),
          e.getMessage());
      return;
    }
    status.delivered(batch.size(), clock.instant());
    nextAttemptMillis = 0;
  }

  private void failed(String error, int size) {
    int failures = status.failed(error, clock.instant());
    long backoff = Math.min(MAX_BACKOFF_MILLIS, 1000L << Math.min(20, failures - 1));
    nextAttemptMillis = clock.millis() + backoff;
    if (failures == 1 || failures % 10 == 0) {
      LOG.log(
          Level.WARNING,
          "Channel {0} ({1}) could not deliver {2} notification(s): {3}. {4} wait in the outbox;"
              + " next attempt in {5}. Check that the receiver is up and reachable from the"
              + " appliance.",
          channel.name(),
          channel.type(),
          size,
          error,
          outbox.waitingCount(channel.name()),
          Duration.ofMillis(backoff));
    }
  }

  private void giveUp(List<OutboxEntry> batch, String error) {
    try {
      outbox.delivered(batch);
    } catch (RuntimeException e) {
      nextAttemptMillis = clock.millis() + 5_000;
      return;
    }
    outbox.countDropped(channel.name(), batch.size());
    status.rejected(error, batch.size(), clock.instant());
    LOG.log(
        Level.WARNING,
        "Channel {0} ({1}) rejected {2} notification(s) for good and they were dropped: {3}. Check"
            + " the channel's settings against the receiver.",
        channel.name(),
        channel.type(),
        batch.size(),
        error);
  }

  /** Returns when the next attempt is due, or null if none waits. */
  synchronized Instant nextAttempt() {
    return nextAttemptMillis > clock.millis() ? Instant.ofEpochMilli(nextAttemptMillis) : null;
  }
}
