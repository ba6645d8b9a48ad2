package io.bulwark.notify.api;

import java.time.Duration;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Delivers one channel's notifications. The notification core calls {@link #send} from one thread
 * per channel, never concurrently, and never on the health engine's thread: it may block up to its
 * own timeouts (connect and answer, each at most about 10 s).
 */
@ConsumerType
public interface ChannelSender extends AutoCloseable {

  /**
   * Delivers {@code batch} (one or more, at most {@link #maxBatch()}), oldest first. Returns when
   * the receiver has accepted all of them; a receiver that accepts part of a batch should be sent
   * the whole batch again, so a sender that cannot tell must deliver one at a time.
   *
   * @throws DeliveryException if the receiver did not accept them; the message says what happened
   *     and where, for the System page
   */
  void send(List<Notification> batch) throws DeliveryException;

  /**
   * Returns how many notifications one {@link #send} may carry: 1 for receivers that take one
   * message at a time (syslog), more for those that group (a webhook's alert list, one mail).
   */
  default int maxBatch() {
    return 1;
  }

  /**
   * Returns how often open findings are sent again to keep them alive at a receiver that expires
   * alerts nobody repeats (Alertmanager), or zero for never.
   */
  default Duration refreshEvery() {
    return Duration.ZERO;
  }

  /** Releases connections; the sender is not used after. */
  @Override
  default void close() {}
}
