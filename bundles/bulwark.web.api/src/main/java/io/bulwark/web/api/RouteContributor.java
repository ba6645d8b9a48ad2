package io.bulwark.web.api;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A bundle's routes in the JSON API, registered as an OSGi service (whiteboard). The admin plane
 * reads {@link #routes()} when the service appears and adds them; when it goes, the routes answer
 * 503 ("the … routes are not available: their bundle is being updated or has stopped") until a
 * contributor of the same name returns. Two contributors must not claim the same method and path;
 * the later one's route is refused and logged.
 */
@ConsumerType
public interface RouteContributor {

  /** Returns a short name for people and messages, e.g. {@code machines}. */
  String name();

  /** Returns the routes; called once when the contributor is bound, never on a request. */
  List<ApiRoute> routes();
}
