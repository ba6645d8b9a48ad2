package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.web.internal.LoginQueue.Standing;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The login queue serves clients that have not failed first: a clean client's check starts before
 * every failing one that waited longer, clients that have not failed find a place while a flood
 * holds the other and the flood pauses while their checks run, failing checks waiting are bounded
 * while clean and known ones are never refused, and however many threads submit and end checks, no
 * more than the places run at once.
 */
class LoginQueueTest {
  private final List<String> started = new ArrayList<>();
  private final List<Runnable> running = new ArrayList<>();

  @Test
  void aCleanClientsCheckStartsBeforeTheFailingOnesThatWaitedLonger() {
    LoginQueue queue = new LoginQueue(1, 32);
    submit(queue, Standing.FAILING, "failing-1");
    submit(queue, Standing.FAILING, "failing-2");
    submit(queue, Standing.FAILING, "failing-3");
    submit(queue, Standing.CLEAN, "clean");
    assertThat(started).containsExactly("failing-1");

    endOldest();
    assertThat(started).containsExactly("failing-1", "clean");
    endOldest();
    endOldest();
    assertThat(started).containsExactly("failing-1", "clean", "failing-2", "failing-3");
  }

  @Test
  void clientsThatHaveNotFailedFindAPlaceWhileTheFloodHoldsTheOtherAndTheFloodPausesMeanwhile() {
    LoginQueue queue = new LoginQueue(2, 32);
    for (int i = 0; i < 10; i++) {
      submit(queue, Standing.FAILING, "failing-" + i);
    }
    assertThat(started).as("the flood takes one place of two").containsExactly("failing-0");

    submit(queue, Standing.CLEAN, "new");
    assertThat(started).as("a new address starts at once").endsWith("new");
    submit(queue, Standing.KNOWN, "console");
    assertThat(started).as("both places taken").hasSize(2);

    endOldest();
    assertThat(started).as("the console before the flood").endsWith("console");
    endOldest();
    assertThat(started).as("while the console's check runs").hasSize(3);
    endOldest();
    assertThat(started).endsWith("failing-1");
    assertThat(queue.waiting(Standing.FAILING)).isEqualTo(8);
  }

  @Test
  void aFailingClientsCheckWaitsWhileABetterOneRunsThoughAPlaceIsFree() {
    LoginQueue queue = new LoginQueue(3, 32);
    submit(queue, Standing.CLEAN, "new");
    submit(queue, Standing.FAILING, "failing");
    assertThat(started).containsExactly("new");
    assertThat(queue.running()).isEqualTo(1);

    endOldest();
    assertThat(started).containsExactly("new", "failing");
  }

  @Test
  void knownClientsComeBeforeCleanOnesWithOnePlace() {
    LoginQueue queue = new LoginQueue(1, 32);
    submit(queue, Standing.FAILING, "failing");
    submit(queue, Standing.CLEAN, "new");
    submit(queue, Standing.KNOWN, "console");
    endOldest();
    assertThat(started).containsExactly("failing", "console");
  }

  @Test
  void failingChecksWaitingAreBoundedWhileOthersAreNeverRefused() {
    LoginQueue queue = new LoginQueue(1, 2);
    assertThat(submit(queue, Standing.FAILING, "running")).isTrue();
    assertThat(submit(queue, Standing.FAILING, "waiting-1")).isTrue();
    assertThat(submit(queue, Standing.FAILING, "waiting-2")).isTrue();
    assertThat(submit(queue, Standing.FAILING, "one too many")).isFalse();
    for (int i = 0; i < 100; i++) {
      assertThat(submit(queue, Standing.CLEAN, "new-" + i)).isTrue();
      assertThat(submit(queue, Standing.KNOWN, "known-" + i)).isTrue();
    }
    assertThat(started).containsExactly("running");
    assertThat(queue.waiting(Standing.FAILING)).isEqualTo(2);
    assertThat(queue.waiting(Standing.CLEAN)).isEqualTo(100);
  }

  @Test
  void aCheckThatEndsTwiceGivesBackOnePlace() {
    LoginQueue queue = new LoginQueue(1, 32);
    submit(queue, Standing.CLEAN, "first");
    submit(queue, Standing.CLEAN, "second");
    submit(queue, Standing.CLEAN, "third");
    Runnable first = running.get(0);
    first.run();
    first.run();
    assertThat(started).containsExactly("first", "second");
    assertThat(queue.running()).isEqualTo(1);
  }

  @Test
  void aCheckThatFailsToStartGivesItsPlaceBack() {
    LoginQueue queue = new LoginQueue(1, 32);
    queue.submit(
        Standing.CLEAN,
        done -> {
          throw new IllegalStateException("closed");
        });
    submit(queue, Standing.CLEAN, "next");
    assertThat(started).containsExactly("next");
  }

  @Test
  void noMoreThanThePlacesRunAtOnceWhateverTheThreads() throws Exception {
    LoginQueue queue = new LoginQueue(2, 8);
    ExecutorService workers = Executors.newFixedThreadPool(4);
    ExecutorService clients = Executors.newFixedThreadPool(8);
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger failingNow = new AtomicInteger();
    AtomicInteger mostFailing = new AtomicInteger();
    AtomicInteger accepted = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    Standing[] standings = Standing.values();
    for (int c = 0; c < 8; c++) {
      int client = c;
      clients.submit(
          () -> {
            for (int i = 0; i < 500; i++) {
              Standing s = standings[(client + i) % standings.length];
              boolean failing = s == Standing.FAILING;
              boolean queued =
                  queue.submit(
                      s,
                      done ->
                          workers.execute(
                              () -> {
                                most.accumulateAndGet(now.incrementAndGet(), Math::max);
                                if (failing) {
                                  mostFailing.accumulateAndGet(
                                      failingNow.incrementAndGet(), Math::max);
                                  failingNow.decrementAndGet();
                                }
                                now.decrementAndGet();
                                ran.incrementAndGet();
                                done.run();
                              }));
              if (queued) {
                accepted.incrementAndGet();
              }
            }
          });
    }
    clients.shutdown();
    assertThat(clients.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (ran.get() < accepted.get() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    workers.shutdown();

    assertThat(ran.get()).as("checks run").isEqualTo(accepted.get());
    assertThat(most.get()).as("most checks at once").isBetween(1, 2);
    assertThat(mostFailing.get()).as("most checks of failing clients at once").isEqualTo(1);
    assertThat(queue.running()).isZero();
    for (Standing s : standings) {
      assertThat(queue.waiting(s)).as("waiting, %s", s).isZero();
    }
  }

  private boolean submit(LoginQueue queue, Standing standing, String name) {
    return queue.submit(
        standing,
        done -> {
          started.add(name);
          running.add(done);
        });
  }

  /** Ends the check that started first of those still running. */
  private void endOldest() {
    running.remove(0).run();
  }
}
