package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Load shedding stretches every target's interval when the appliance is the bottleneck, never for a
 * slow or dead exporter, stops at its limit, and comes back by itself once there is room; on a
 * machine at its limit it settles instead of see-sawing.
 */
class ScrapePacerTest {
  private double cpu = 0.99;
  private long now = 1_000_000;
  private final ScrapePacer pacer = new ScrapePacer(1000, 800, 4000, () -> cpu, () -> now);

  @Test
  void missedScrapesOnASaturatedMachineStretchEveryIntervalUpToTheLimit() {
    round(2048, 100, 0, 0);
    assertThat(pacer.stretch()).isEqualTo(1.25);
    assertThat(pacer.intervalMillis()).isEqualTo(1250);
    assertThat(pacer.timeoutMillis()).isEqualTo(1000);
    assertThat(pacer.report().shedding()).isTrue();
    assertThat(pacer.report().sheddingSinceMillis()).isEqualTo(now);

    for (int i = 0; i < 20; i++) {
      round(2048, 100, 0, 0);
    }
    assertThat(pacer.intervalMillis()).isEqualTo(4000);
    assertThat(pacer.timeoutMillis()).isEqualTo(3200);
    assertThat(pacer.report().overloadedRounds()).isEqualTo(21);
    assertThat(pacer.report().lastOverloaded().describe())
        .isEqualTo("100 of 2048 scrapes missed (4.9%), CPUs 99% busy");
  }

  @Test
  void aDeadOrSlowExporterIsNotLoad() {
    cpu = 0.30;
    for (int i = 0; i < 10; i++) {
      round(2048, 200, 0, 0);
    }
    assertThat(pacer.stretch()).isEqualTo(1.0);
    assertThat(pacer.report().lastRound().verdict()).isEqualTo(ScrapePacer.Verdict.STRAINED);
    assertThat(pacer.report().shedding()).isFalse();
  }

  @Test
  void pagesWaitingForTheParsersOrALateTimerShowOverloadWhereTheCpuFiguresCannot() {
    cpu = Double.NaN;
    round(2048, 100, 250, 0);
    assertThat(pacer.stretch()).isEqualTo(1.25);
    round(2048, 100, 0, 400);
    assertThat(pacer.stretch()).isEqualTo(1.5625);
    round(2048, 100, 0, 0);
    assertThat(pacer.stretch()).isEqualTo(1.5625);
  }

  @Test
  void halfTheFleetTimingOutAtOnceOnASaturatedMachineIsOverloadWhateverTheTargetsDidBefore() {
    // A start-up storm: every target timed out before, so none counts as missed one by one.
    timeouts(2048, 1100);
    assertThat(pacer.stretch()).isEqualTo(1.25);
    cpu = 0.30;
    timeouts(2048, 1100);
    assertThat(pacer.stretch()).as("an idle machine: the targets' problem").isEqualTo(1.25);
    cpu = 0.99;
    timeouts(2048, 900);
    assertThat(pacer.stretch()).as("under half: a dead rack is not load").isEqualTo(1.25);
  }

  @Test
  void oneMissAmongThousandsIsNoOverload() {
    round(2048, 30, 0, 0);
    assertThat(pacer.stretch()).isEqualTo(1.0);
    assertThat(pacer.report().lastRound().verdict()).isEqualTo(ScrapePacer.Verdict.STRAINED);
  }

  @Test
  void onceThereIsRoomTheIntervalComesBackByItself() {
    for (int i = 0; i < 10; i++) {
      round(2048, 500, 0, 0);
    }
    assertThat(pacer.intervalMillis()).isEqualTo(4000);

    cpu = 0.45;
    int rounds = 0;
    while (pacer.stretch() > 1.0 && rounds < 1000) {
      round(2048, 0, 0, 0);
      rounds++;
    }
    assertThat(pacer.stretch()).isEqualTo(1.0);
    assertThat(pacer.intervalMillis()).isEqualTo(1000);
    assertThat(pacer.timeoutMillis()).isEqualTo(800);
    assertThat(rounds).as("six steps of 1.25").isEqualTo(6 * ScrapePacer.CALM_ROUNDS);
    assertThat(pacer.report().shedding()).isFalse();
    assertThat(pacer.report().sheddingSinceMillis()).isEqualTo(-1);
  }

  @Test
  void onABusyMachineItProbesAndBacksOffWhenTheProbeFails() {
    round(2048, 100, 0, 0);
    round(2048, 100, 0, 0);
    double settled = pacer.stretch();

    for (int i = 0; i < ScrapePacer.FIRST_PROBE_ROUNDS - 1; i++) {
      round(2048, 0, 0, 0);
    }
    assertThat(pacer.stretch()).as("no probe before its time").isEqualTo(settled);
    round(2048, 0, 0, 0);
    assertThat(pacer.stretch()).as("the probe").isLessThan(settled);

    round(2048, 100, 0, 0);
    assertThat(pacer.stretch()).as("the probe failed").isGreaterThan(settled);
    for (int i = 0; i < 2 * ScrapePacer.FIRST_PROBE_ROUNDS - 1; i++) {
      round(2048, 0, 0, 0);
    }
    double afterFailedProbe = pacer.stretch();
    round(2048, 0, 0, 0);
    assertThat(pacer.stretch())
        .as("the next probe waits twice as long")
        .isLessThan(afterFailedProbe);
  }

  @Test
  void oneOrTwoLatePagesOfASmallFleetAreAHiccupNotLoad() {
    cpu = 0.99;
    round(16, 1, 0, 300);
    round(16, 2, 0, 300);
    assertThat(pacer.stretch()).as("2 of 16 missed").isEqualTo(1.0);
    round(16, 3, 0, 300);
    assertThat(pacer.stretch()).as("3 of 16 missed").isGreaterThan(1.0);
  }

  @Test
  void aRoundWithoutScrapesDecidesNothing() {
    pacer.missed();
    pacer.endRound();
    assertThat(pacer.stretch()).isEqualTo(1.0);
    assertThat(pacer.report().rounds()).isZero();
  }

  @Test
  void sheddingOffWhenTheLimitIsTheInterval() {
    ScrapePacer off = new ScrapePacer(1000, 800, 1000, () -> 1.0, () -> now);
    for (int i = 0; i < 5; i++) {
      for (int s = 0; s < 100; s++) {
        off.started();
        off.missed();
      }
      off.endRound();
    }
    assertThat(off.intervalMillis()).isEqualTo(1000);
    assertThat(off.report().shedding()).isFalse();
    assertThatThrownBy(() -> new ScrapePacer(1000, 800, 999, () -> 1.0, () -> now))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("999 ms");
  }

  /** One round of {@code scrapes}, {@code timedOut} of them timed out on targets already down. */
  private void timeouts(int scrapes, int timedOut) {
    for (int i = 0; i < scrapes; i++) {
      pacer.started();
    }
    for (int i = 0; i < timedOut; i++) {
      pacer.timedOut(false);
    }
    now += pacer.intervalMillis();
    pacer.endRound();
  }

  /** One round of {@code scrapes}, {@code missed} of them missed. */
  private void round(int scrapes, int missed, long waitedMillis, long lateMillis) {
    for (int i = 0; i < scrapes; i++) {
      pacer.started();
    }
    for (int i = 0; i < missed; i++) {
      pacer.missed();
    }
    pacer.waited(waitedMillis);
    pacer.late(lateMillis);
    now += pacer.intervalMillis();
    pacer.endRound();
  }
}
