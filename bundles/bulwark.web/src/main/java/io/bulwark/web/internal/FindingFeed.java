package io.bulwark.web.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Component;

/**
 * The web plane's {@link FindingListener}: hands every finding change to the event streams that
 * subscribed. A component of its own, with no references, so that the health engine can bind it
 * while the web server (which needs the health engine) is still starting — no circular reference
 * between the two.
 */
@Component(service = {FindingListener.class, FindingFeed.class})
public final class FindingFeed implements FindingListener {
  private final Set<Consumer<Finding>> subscribers = new CopyOnWriteArraySet<>();

  /** Delivers every later finding change to {@code subscriber}, on the health engine's thread. */
  void subscribe(Consumer<Finding> subscriber) {
    subscribers.add(subscriber);
  }

  void unsubscribe(Consumer<Finding> subscriber) {
    subscribers.remove(subscriber);
  }

  @Override
  public void findingChanged(Finding finding) {
    subscribers.forEach(s -> s.accept(finding));
  }
}
