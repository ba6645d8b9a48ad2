package io.bulwark.api.system;

import java.time.Instant;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Registered by the start-up check once the appliance has started: every service its role requires
 * is up and no component is still activating, so every area's routes answer. The admin plane's
 * {@code /healthz} and its login answer 503 ("starting") until it is there; what the console says
 * ("Bulwark started") is printed at the same moment.
 *
 * @since 1.3
 */
@ProviderType
public interface ApplianceStarted {
  /** Returns when the appliance started. */
  Instant at();
}
