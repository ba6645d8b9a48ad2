package io.bulwark.web.api;

import io.bulwark.api.security.Role;
import java.util.Set;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A topic of the server-sent event stream ({@code GET /api/v1/events}), registered as an OSGi
 * service (whiteboard): events go out as {@code event: <name>} with a JSON line as data, to the
 * clients whose role the topic admits. When the topic is bound the admin plane {@linkplain #open
 * opens} it with a sink to publish into; when it goes it is {@linkplain #close closed}.
 */
@ConsumerType
public interface EventTopic {

  /** Returns the event name: lower case, e.g. {@code finding}. */
  String name();

  /** Returns the roles whose clients receive the topic; never empty. */
  Set<Role> roles();

  /** Starts publishing into {@code sink}; called once when the topic is bound. */
  void open(EventSink sink);

  /** Stops publishing; the sink is no longer used. */
  void close();

  /**
   * Returns the JSON a client gets when it connects (the current state), or null for none. Called
   * on a worker thread; may block briefly.
   */
  default String snapshot() {
    return null;
  }
}
