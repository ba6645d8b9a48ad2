package io.bulwark.web.internal;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What one GPU-hour costs the site, to show lost capacity in money as well as hours: an amount (0 =
 * not shown) in a currency named by its ISO 4217 code.
 */
record GpuHourPrice(double amount, String currency) {
  private static final Pattern CODE = Pattern.compile("[A-Z]{3}");

  /**
   * @throws IllegalArgumentException naming the setting that is wrong
   */
  GpuHourPrice {
    if (!(amount >= 0 && amount < 1_000_000)) {
      throw new IllegalArgumentException(
          "gpuHourPrice must be between 0 and 1000000 (0 hides money figures), was " + amount);
    }
    currency = currency == null ? "" : currency.strip().toUpperCase(Locale.ROOT);
    if (!CODE.matcher(currency).matches()) {
      throw new IllegalArgumentException(
          "currency must be a three-letter ISO 4217 code such as USD or EUR, was '"
              + currency
              + "'");
    }
  }

  /** Returns true if money figures are shown. */
  boolean shown() {
    return amount > 0;
  }
}
