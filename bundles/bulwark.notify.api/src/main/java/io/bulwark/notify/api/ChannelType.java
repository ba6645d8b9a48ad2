package io.bulwark.notify.api;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A kind of channel (syslog, webhook, mail), registered as an OSGi service (whiteboard) by its
 * bundle. The notification core opens one {@link ChannelSender} per configured channel of this type
 * and closes it when the channel is changed or removed, or the type goes away (its bundle is
 * updated: the channel's notifications wait in the outbox until it returns).
 */
@ConsumerType
public interface ChannelType {

  /** Returns the type's name in configurations: lower case, e.g. {@code syslog}. */
  String type();

  /** Returns the settings the type reads, for the API and the UI's form. */
  List<ChannelSetting> settings();

  /**
   * Checks {@code config} and returns a sender for it. Does not connect: a receiver that is down
   * now is a delivery failure later, not an invalid configuration.
   *
   * @throws IllegalArgumentException naming the setting, if a setting is missing or unusable
   */
  ChannelSender open(ChannelConfig config);
}
