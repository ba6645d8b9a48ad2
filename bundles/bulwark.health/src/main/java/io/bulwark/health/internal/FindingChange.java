package io.bulwark.health.internal;

import io.bulwark.api.health.Finding;

/**
 * One change the finding tracker made in an evaluation, to be stored and told to the finding
 * listeners.
 *
 * @param type what happened to the finding
 * @param finding the finding as it must be stored
 */
record FindingChange(Type type, Finding finding) {

  /** What happened to a finding in one evaluation. */
  enum Type {
    /** The condition was seen for the first time: a new finding. */
    OPENED,
    /** The condition is still reported with another severity or summary. */
    CHANGED,
    /** The condition is still reported unchanged; its last-seen time is written back. */
    REFRESHED,
    /** The condition stayed away long enough: the finding is closed. */
    RESOLVED
  }
}
