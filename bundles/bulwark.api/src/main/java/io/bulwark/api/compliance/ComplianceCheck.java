package io.bulwark.api.compliance;

import java.time.Instant;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A live check of something a bundle owns (its settings, its state, what it answers), registered as
 * a service. Its {@link #id()} is the one the requirement map's automated rules name, so one check
 * may prove several rules.
 */
@ConsumerType
public interface ComplianceCheck {

  /** Returns the check's id as the requirement map names it, e.g. {@code fips-approved-only}. */
  String id();

  /** Returns what it checks, in a line. */
  String title();

  /**
   * Runs the check. Returns within a few seconds; a failure to look (a service away, a file that
   * cannot be read) is a {@link CheckStatus#NOT_REVIEWED} result saying why, never an exception.
   */
  CheckResult run(Instant now);
}
