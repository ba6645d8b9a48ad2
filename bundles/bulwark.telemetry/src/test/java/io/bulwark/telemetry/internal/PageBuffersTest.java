package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PageBuffersTest {
  @Test
  void reusesAnArrayLargeEnoughAndNeverHandsOneOutTwice() {
    PageBuffers buffers = new PageBuffers(2);
    byte[] first = buffers.take(100_000);
    byte[] second = buffers.take(10);

    assertThat(first).hasSizeGreaterThanOrEqualTo(100_000);
    assertThat(second).hasSize(PageBuffers.MIN_BYTES).isNotSameAs(first);
    buffers.give(first);
    assertThat(buffers.take(90_000)).isSameAs(first);
    assertThat(buffers.take(90_000)).as("taken once only").isNotSameAs(first);
  }

  @Test
  void keepsAtMostItsLimit() {
    PageBuffers buffers = new PageBuffers(2);
    buffers.give(new byte[10]);
    buffers.give(new byte[10]);
    buffers.give(new byte[10]);

    assertThat(buffers.free()).isEqualTo(2);
    byte[] large = buffers.take(PageBuffers.MIN_BYTES * 2);
    assertThat(large).hasSize(PageBuffers.MIN_BYTES * 2);
    assertThat(buffers.free())
        .as("one small array let go to make room for the larger")
        .isEqualTo(1);
  }
}
