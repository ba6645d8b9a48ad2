package io.bulwark.runtime.internal;

import io.bulwark.api.system.ConsoleNotice;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.function.Predicate;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Refuses a half-started appliance: once the framework has started, waits for the services the role
 * cannot run without (the FIPS module, the secret store, the TLS identity, the admin plane) and, if
 * one is still missing after the timeout, says which and exits (status 78), instead of running on
 * without them. The components' own errors, logged above, say why.
 */
@Component(
    immediate = true,
    configurationPid = "io.bulwark.runtime.startup",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = StartupConfig.class)
public final class StartupCheck implements FrameworkListener {
  private static final System.Logger LOG = System.getLogger(StartupCheck.class.getName());

  private final BundleContext context;
  private final List<String> required;
  private final long timeoutMillis;
  private volatile Thread watcher;

  @Activate
  public StartupCheck(BundleContext context, StartupConfig config) {
    this.context = context;
    this.required = List.of(config.requiredServices());
    this.timeoutMillis = config.timeoutSeconds() * 1000L;
    if (config.timeoutSeconds() < 1) {
      throw new IllegalArgumentException(
          "timeoutSeconds of io.bulwark.runtime.startup must be at least 1: "
              + config.timeoutSeconds());
    }
    context.addFrameworkListener(this);
    if (context.getBundle(0).getState() == org.osgi.framework.Bundle.ACTIVE) {
      watch();
    }
  }

  @Override
  public void frameworkEvent(FrameworkEvent event) {
    if (event.getType() == FrameworkEvent.STARTED) {
      watch();
    }
  }

  private synchronized void watch() {
    if (watcher != null) {
      return;
    }
    watcher = new Thread(this::await, "bulwark-startup-check");
    watcher.setDaemon(true);
    watcher.start();
  }

  private void await() {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    List<String> missing = missing(required, this::up);
    while (!missing.isEmpty() && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
      missing = missing(required, this::up);
    }
    if (missing.isEmpty()) {
      LOG.log(Level.INFO, "Bulwark started: every required service is up");
      showNotices();
      return;
    }
    String message =
        "Bulwark cannot start: "
            + String.join(", ", missing)
            + " did not come up within "
            + timeoutMillis / 1000
            + " s; the errors above say why";
    System.err.println(message);
    LOG.log(Level.ERROR, message);
    System.exit(EnvironmentOverrides.EXIT_CONFIG);
  }

  /** Prints, after "Bulwark started", what the person at the console must read (once). */
  private void showNotices() {
    try {
      for (ServiceReference<ConsoleNotice> ref :
          context.getServiceReferences(ConsoleNotice.class, null)) {
        ConsoleNotice notice = context.getService(ref);
        if (notice == null) {
          continue;
        }
        try {
          String text = notice.notice();
          if (!text.isEmpty()) {
            System.err.println(text);
            notice.shown();
          }
        } finally {
          context.ungetService(ref);
        }
      }
    } catch (InvalidSyntaxException | RuntimeException e) {
      LOG.log(Level.WARNING, "Could not show the start-up notices: {0}", e.toString());
    }
  }

  /**
   * Returns true if a service of this class is up: registered, and its component activated (DS
   * registers an immediate component's service before it activates, so a failed activation still
   * shows as registered; getting the service object tells).
   */
  private boolean up(String objectClass) {
    try {
      ServiceReference<?> ref = context.getServiceReference(objectClass);
      if (ref == null) {
        return false;
      }
      Object service = context.getService(ref);
      if (service == null) {
        return false;
      }
      context.ungetService(ref);
      return true;
    } catch (IllegalStateException stopping) {
      return true;
    }
  }

  /** Returns the required services that {@code present} says are not registered. */
  static List<String> missing(List<String> required, Predicate<String> present) {
    return required.stream().filter(present.negate()).toList();
  }

  @Deactivate
  void deactivate() {
    context.removeFrameworkListener(this);
    Thread w = watcher;
    if (w != null) {
      w.interrupt();
    }
  }
}
