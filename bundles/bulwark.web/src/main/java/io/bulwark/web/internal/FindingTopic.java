package io.bulwark.web.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * The {@code finding} topic of the event stream: every finding the health engine opens, changes or
 * resolves, as its JSON, for every role. A finding listener with no references of its own, so that
 * the health engine and the admin plane can start in either order.
 */
@Component(service = {EventTopic.class, FindingListener.class})
public final class FindingTopic implements EventTopic, FindingListener {
  private volatile EventSink sink;

  @Override
  public String name() {
    return "finding";
  }

  @Override
  public Set<Role> roles() {
    return ApiRoute.ANY_ROLE;
  }

  @Override
  public void open(EventSink into) {
    this.sink = into;
  }

  @Override
  public void close() {
    this.sink = null;
  }

  /** Publishes the change; called on the health engine's thread, returns at once. */
  @Override
  public void findingChanged(Finding finding) {
    EventSink current = sink;
    if (current != null) {
      current.publish(ApiJson.finding(finding).encode());
    }
  }
}
