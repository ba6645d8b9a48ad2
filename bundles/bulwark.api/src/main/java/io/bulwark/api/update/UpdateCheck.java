package io.bulwark.api.update;

import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A check a bundle contributes to the health check after an update's hot swap: registered as a
 * service, it is asked once the new bundle set is active, and a problem it names rolls the update
 * back to the previous set. A check answers within a few seconds and changes nothing.
 */
@ConsumerType
public interface UpdateCheck {
  /** What is checked, for the update's history ("the store opens its maps"). */
  String name();

  /**
   * Runs the check.
   *
   * @return the problem in words for an admin, or empty if all is well
   */
  Optional<String> problem();
}
