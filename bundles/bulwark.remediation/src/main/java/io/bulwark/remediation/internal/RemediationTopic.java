package io.bulwark.remediation.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/** The {@code remediation} event topic: every run as it changes, live on the page. */
@Component(service = EventTopic.class)
public final class RemediationTopic implements EventTopic {
  private final AutoCloseable subscription;
  private volatile EventSink sink;

  @Activate
  public RemediationTopic(@Reference RemediationEngine engine) {
    this.subscription =
        engine.listen(
            run -> {
              EventSink current = sink;
              if (current != null) {
                current.publish(RunJson.run(run).encode());
              }
            });
  }

  @Deactivate
  void deactivate() throws Exception {
    subscription.close();
  }

  @Override
  public String name() {
    return "remediation";
  }

  @Override
  public Set<Role> roles() {
    return ApiRoute.ANY_ROLE;
  }

  @Override
  public void open(EventSink into) {
    sink = into;
  }

  @Override
  public void close() {
    sink = null;
  }
}
