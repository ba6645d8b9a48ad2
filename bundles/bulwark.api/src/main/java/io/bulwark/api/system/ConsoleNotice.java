package io.bulwark.api.system;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Something the person starting the appliance must read on its console, shown once after the
 * "Bulwark started" line so that it does not scroll away among the start-up messages (the first
 * administrator's generated password). The runtime prints {@link #notice} and then calls {@link
 * #shown}, after which the notice is empty.
 *
 * @since 1.2
 */
@ConsumerType
public interface ConsoleNotice {
  /** Returns the text to show, or an empty string when there is nothing (any more). */
  String notice();

  /** Called once the text is on the console: forget it. */
  void shown();
}
