package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SeriesRingTest {

  @Test
  void keepsTheNewestSamplesOnceFullOldestFirst() {
    SeriesRing ring = new SeriesRing(5);
    for (int t = 1; t <= 12; t++) {
      assertThat(ring.append(t * 1000L, t * 1.5)).isTrue();
    }

    SampleWindow all = ring.window(Long.MIN_VALUE);
    assertThat(ring.size()).isEqualTo(5);
    assertThat(all.timestamps()).containsExactly(8000, 9000, 10000, 11000, 12000);
    assertThat(all.values()).containsExactly(12.0, 13.5, 15.0, 16.5, 18.0);
    assertThat(ring.latest()).isEqualTo(new Sample(12000, 18.0));
  }

  @Test
  void windowsStartAtTheFirstSampleAtOrAfterTheGivenTime() {
    SeriesRing ring = new SeriesRing(7);
    for (int t = 1; t <= 10; t++) {
      ring.append(t * 10L, t);
    }

    assertThat(ring.window(65).timestamps()).containsExactly(70, 80, 90, 100);
    assertThat(ring.window(70).timestamps()).containsExactly(70, 80, 90, 100);
    assertThat(ring.window(0).timestamps()).containsExactly(40, 50, 60, 70, 80, 90, 100);
    assertThat(ring.window(100).values()).containsExactly(10.0);
    assertThat(ring.window(101).isEmpty()).isTrue();
  }

  @Test
  void windowsAreCopiesThatDoNotChangeWithLaterWrites() {
    SeriesRing ring = new SeriesRing(3);
    ring.append(1, 1);
    ring.append(2, 2);
    SampleWindow before = ring.window(0);
    ring.append(3, 3);
    ring.append(4, 4);

    assertThat(before.values()).containsExactly(1.0, 2.0);
    assertThat(ring.window(0).values()).containsExactly(2.0, 3.0, 4.0);
  }

  @Test
  void refusesSamplesThatAreNotNewer() {
    SeriesRing ring = new SeriesRing(3);
    ring.append(100, 1);

    assertThat(ring.append(100, 2)).isFalse();
    assertThat(ring.append(50, 3)).isFalse();
    assertThat(ring.window(0).values()).containsExactly(1.0);
  }

  @Test
  void emptyRingHasNothing() {
    SeriesRing ring = new SeriesRing(3);

    assertThat(ring.latest()).isNull();
    assertThat(ring.window(0).isEmpty()).isTrue();
    assertThatThrownBy(() -> new SeriesRing(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readersAlwaysSeeAConsistentWindowWhileOneThreadWrites() throws Exception {
    SeriesRing ring = new SeriesRing(64);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicReference<String> broken = new AtomicReference<>();
    AtomicLong windowsRead = new AtomicLong();
    CountDownLatch started = new CountDownLatch(3);
    Thread writer =
        new Thread(
            () -> {
              started.countDown();
              for (long t = 1; t <= 300_000; t++) {
                ring.append(t, t * 2.0);
              }
              writing.set(false);
            });
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      readers.add(
          new Thread(
              () -> {
                started.countDown();
                while (writing.get() && broken.get() == null) {
                  SampleWindow window = ring.window(0);
                  windowsRead.incrementAndGet();
                  for (int i = 0; i < window.size(); i++) {
                    boolean ordered = i == 0 || window.timestamp(i) == window.timestamp(i - 1) + 1;
                    if (!ordered || window.value(i) != window.timestamp(i) * 2.0) {
                      broken.set(
                          "sample "
                              + i
                              + " of "
                              + window.size()
                              + ": "
                              + window.timestamp(i)
                              + "="
                              + window.value(i));
                    }
                  }
                }
              }));
    }
    readers.forEach(Thread::start);
    writer.start();
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
    writer.join(20_000);
    for (Thread reader : readers) {
      reader.join(20_000);
    }

    assertThat(broken.get()).isNull();
    assertThat(windowsRead.get()).isPositive();
    assertThat(ring.window(0).latestTimestamp()).isEqualTo(300_000);
    assertThat(ring.window(0).size()).isEqualTo(64);
  }

  @Test
  void keepsEpochTimestampsExactlyAcrossTheRingsWrap() {
    SeriesRing ring = new SeriesRing(4);
    long start = 1_767_225_600_123L;
    for (int i = 0; i < 10; i++) {
      ring.append(start + i * 1_001L, i);
    }

    SampleWindow window = ring.window(0);
    assertThat(window.size()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      assertThat(window.timestamp(i)).isEqualTo(start + (6 + i) * 1_001L);
      assertThat(window.value(i)).isEqualTo(6 + i);
    }
    assertThat(ring.latest().timestampMillis()).isEqualTo(start + 9 * 1_001L);
    assertThat(ring.window(start + 8 * 1_001L).size()).isEqualTo(2);
  }

  @Test
  void aSampleMoreThanTheLongestSpanAfterTheOldestPushesOutWhatItCannotBeKeptWith() {
    SeriesRing ring = new SeriesRing(4);
    long start = 1_767_225_600_000L;
    ring.append(start, 1);
    ring.append(start + 10_000, 2);
    ring.append(start + SeriesRing.MAX_SPAN_MILLIS - 5_000, 3);

    ring.append(start + SeriesRing.MAX_SPAN_MILLIS + 5_000, 4);

    SampleWindow window = ring.window(0);
    assertThat(window.values()).as("the first is too old, the second not").containsExactly(2, 3, 4);
    assertThat(window.timestamp(0)).isEqualTo(start + 10_000);
    assertThat(window.timestamp(1)).isEqualTo(start + SeriesRing.MAX_SPAN_MILLIS - 5_000);
    assertThat(window.timestamp(2)).isEqualTo(start + SeriesRing.MAX_SPAN_MILLIS + 5_000);

    long muchLater = start + 10 * SeriesRing.MAX_SPAN_MILLIS;
    ring.append(muchLater, 5);
    assertThat(ring.window(0).values()).containsExactly(5);
    assertThat(ring.latest().timestampMillis()).isEqualTo(muchLater);
    assertThat(ring.append(muchLater, 6)).isFalse();
  }

  @Test
  void startsSmallAndGrowsToItsCapacityKeepingTheSamplesInOrder() {
    SeriesRing ring = new SeriesRing(100);
    for (int i = 0; i < 250; i++) {
      ring.append(1_000L * i, i);
      int expected = Math.min(i + 1, 100);
      SampleWindow window = ring.window(0);
      assertThat(window.size()).as("after %d samples", i + 1).isEqualTo(expected);
      assertThat(window.value(0)).isEqualTo(i + 1 - expected);
      assertThat(window.latestValue()).isEqualTo(i);
      assertThat(window.timestamp(expected / 2))
          .isEqualTo(1_000L * (i + 1 - expected + expected / 2));
    }
    assertThat(ring.capacity()).isEqualTo(100);
  }

  @Test
  void timestampsTooFarApartForALongAreKeptApartToo() {
    SeriesRing ring = new SeriesRing(4);
    ring.append(Long.MIN_VALUE + 1, 1);
    ring.append(1_700_000_000_000L, 2);

    assertThat(ring.window(Long.MIN_VALUE).values()).containsExactly(2);
    assertThat(ring.latest().timestampMillis()).isEqualTo(1_700_000_000_000L);
  }
}
