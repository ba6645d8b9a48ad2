package io.bulwark.api.health;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Told when a finding opens, changes or resolves. Register as an OSGi service (whiteboard); the web
 * UI's event stream is one. Called on the health engine's thread after the change is stored: must
 * return quickly.
 */
@ConsumerType
public interface FindingListener {

  /** Called with the finding as stored after the change. */
  void findingChanged(Finding finding);
}
