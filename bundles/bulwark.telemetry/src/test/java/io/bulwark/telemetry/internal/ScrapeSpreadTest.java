package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.ScrapeTarget;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Targets are spread over the scrape interval: a fleet's targets fall evenly into the interval's
 * slots, each target always into the same one, so no tick starts them all at once.
 */
class ScrapeSpreadTest {

  @Test
  void twoThousandTargetsFallEvenlyIntoTheSlots() {
    int[] perSlot = new int[ScrapeLoop.SLOTS];
    int targets = 2048;
    for (int n = 0; n < targets; n++) {
      ScrapeTarget t =
          new ScrapeTarget(String.format("gpu-node-%04d:9400", n), null, null, Map.of());
      int slot = ScrapeLoop.slotOf(t);
      assertThat(slot).isBetween(0, ScrapeLoop.SLOTS - 1);
      assertThat(ScrapeLoop.slotOf(t)).isEqualTo(slot);
      perSlot[slot]++;
    }
    int even = targets / ScrapeLoop.SLOTS;
    for (int count : perSlot) {
      assertThat(count).isBetween(even / 2, even * 2);
    }
  }

  @Test
  void pathsOnOneAddressAreSpreadToo() {
    int[] perSlot = new int[ScrapeLoop.SLOTS];
    for (int n = 0; n < 512; n++) {
      ScrapeTarget t =
          new ScrapeTarget("127.0.0.1:9400", null, "/nodes/gpu-node-" + n + "/metrics", Map.of());
      perSlot[ScrapeLoop.slotOf(t)]++;
    }
    for (int count : perSlot) {
      assertThat(count).isPositive().isLessThan(512 / ScrapeLoop.SLOTS * 3);
    }
  }
}
