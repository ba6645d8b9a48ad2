package io.bulwark.api.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AddressBudgetTest {
  private final AtomicLong nanos = new AtomicLong();
  private final SteadyClock clock = SteadyClock.of(1_800_000_000_000L, nanos::get);

  @Test
  void aBurstThenOneAttemptPerIntervalPerAddress() {
    AddressBudget budget = new AddressBudget(3, 6, clock);
    for (int i = 0; i < 3; i++) {
      assertThat(budget.take("192.0.2.1")).isZero();
    }
    assertThat(budget.take("192.0.2.1")).isEqualTo(6);
    assertThat(budget.take("192.0.2.2")).as("another address has its own").isZero();
    nanos.addAndGet(Duration.ofSeconds(4).toNanos());
    assertThat(budget.take("192.0.2.1")).isEqualTo(2);
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(budget.take("192.0.2.1")).isZero();
    assertThat(budget.take("192.0.2.1")).isEqualTo(6);
  }

  @Test
  void aBudgetOfNothingIsRefused() {
    assertThatThrownBy(() -> new AddressBudget(0, 6, clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
