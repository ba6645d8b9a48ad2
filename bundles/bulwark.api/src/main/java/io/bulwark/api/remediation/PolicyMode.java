package io.bulwark.api.remediation;

import java.util.Locale;
import java.util.Optional;

/** How a policy's runs act. */
public enum PolicyMode {
  /** Every step runs by itself. */
  AUTOMATIC,
  /** Destructive steps wait for a person's approval; the others run by themselves. */
  APPROVE_DESTRUCTIVE,
  /** Nothing is touched: the run shows each step as it would be done, and ends. */
  DRY_RUN;

  /** Returns the mode's name in the API: {@code automatic}, {@code approve-destructive}… */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Returns the mode an API name stands for, if any. */
  public static Optional<PolicyMode> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String key = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (PolicyMode m : values()) {
      if (m.name().equals(key)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }
}
