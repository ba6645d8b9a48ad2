package io.bulwark.api.store;

/**
 * How far a write may go into the store's disk reserve (the free space it keeps so that the disk
 * never fills and the audit log keeps room).
 *
 * @since 1.1
 */
public enum WritePriority {
  /** Refused once the free space is below the reserve: inventory, findings, accounts of hours. */
  ROUTINE,
  /**
   * Goes on down to an eighth of the reserve: what an administrator needs to log in and act
   * (accounts, tokens) and the appliance's findings about itself (the disk filling).
   */
  RESERVED
}
