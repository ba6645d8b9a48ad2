package io.bulwark.notify.api;

import io.bulwark.api.health.Finding;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Tells people something about a finding through the configured channels, outside the finding's own
 * open, change and resolve notifications: a remediation run's {@code notify} step telling
 * facilities that a throttling node is drained, for instance. Provided by the notification core.
 */
@ProviderType
public interface Notices {

  /**
   * Queues {@code text} about {@code finding} for {@code audience}: for every enabled channel named
   * {@code audience}, whatever its route, and for every other enabled channel whose route carries
   * the finding. Stored before it returns, so it is sent after a restart too; never repeated or
   * resolved.
   *
   * @param id stable for one notice (a run and its step), sent as the notification's id: a notice
   *     told again while it still waits replaces it, and receivers may deduplicate on it
   * @return the names of the channels it was queued for, empty when none takes it
   * @throws io.bulwark.api.store.StoreUnavailableException if it could not be stored; nothing was
   *     queued
   */
  java.util.List<String> tell(String id, String audience, Finding finding, String text);
}
