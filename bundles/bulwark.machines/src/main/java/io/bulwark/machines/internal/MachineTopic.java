package io.bulwark.machines.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code machine} topic of the event stream: every stored change of a machine (a state, a BMC
 * operation going pending and its result, a BMC read that changed its power or error) as the
 * machine's JSON, or {@code {"id":…,"deleted":true}}, so the pages follow long BMC operations live.
 */
@Component(service = EventTopic.class)
public final class MachineTopic implements EventTopic {
  private final AutoCloseable subscription;
  private volatile EventSink sink;

  @Activate
  public MachineTopic(@Reference MachineRegistry machines) {
    this.subscription =
        machines.listen(
            (id, m) -> {
              EventSink current = sink;
              if (current != null) {
                current.publish(
                    m == null
                        ? new JsonObject().put("id", id.value()).put("deleted", true).encode()
                        : MachineRoutes.json(m).encode());
              }
            });
  }

  @Deactivate
  void deactivate() throws Exception {
    subscription.close();
  }

  @Override
  public String name() {
    return "machine";
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
