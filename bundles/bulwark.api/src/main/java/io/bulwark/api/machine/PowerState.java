package io.bulwark.api.machine;

import java.util.Locale;

/** A machine's power as its BMC last reported it. */
public enum PowerState {
  ON,
  OFF,
  POWERING_ON,
  POWERING_OFF,
  /** Never asked, or the BMC could not be reached. */
  UNKNOWN;

  /** Returns the state's name in the API, e.g. {@code powering-on}. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
