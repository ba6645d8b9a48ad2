package io.bulwark.api.bmc;

/** What to do with a machine's power. */
public enum PowerAction {
  /** Power on. */
  ON,
  /** Power off at once (hard). */
  OFF,
  /** Ask the operating system to shut down; off at once if it has not after the timeout. */
  SOFT_OFF,
  /** Off and on again (hard), or the BMC's own power cycle where it has one. */
  CYCLE
}
