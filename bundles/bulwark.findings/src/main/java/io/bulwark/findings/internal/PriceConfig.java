package io.bulwark.findings.internal;

/**
 * The price of a GPU-hour as the admin plane is configured (PID {@code io.bulwark.web}), to show
 * what a finding has cost in money; 0 shows hours only.
 */
@interface PriceConfig {
  double gpuHourPrice() default 0;

  String currency() default "USD";
}
