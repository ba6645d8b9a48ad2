package io.bulwark.runtime.internal;

import io.bulwark.api.system.ApplianceStarted;
import io.bulwark.api.system.ConsoleNotice;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.function.Predicate;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.ComponentConstants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Refuses a half-started appliance: once the framework has started, waits for the services the role
 * cannot run without (the FIPS module, the secret store, the TLS identity, the admin plane) and, if
 * one is still missing after the timeout, or its component has failed to activate for 5 s (a
 * refusal such as a missing TPM does not mend itself), says which and exits (status 78), instead of
 * running on without them. The components' own errors, logged above, say why. When they are up and
 * no component is still activating, says "Bulwark started" and registers {@link ApplianceStarted},
 * for which the admin plane's health and login wait: ready when it says so.
 */
@Component(
    immediate = true,
    configurationPid = "io.bulwark.runtime.startup",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = StartupConfig.class)
public final class StartupCheck implements FrameworkListener {
  private static final System.Logger LOG = System.getLogger(StartupCheck.class.getName());

  private final BundleContext context;
  private final ServiceComponentRuntime components;
  private final List<String> required;
  private final long timeoutMillis;
  private static final long POLL_MILLIS = 100;
  private static final long FAILED_GRACE_MILLIS = 5_000;
  private volatile Thread watcher;
  private volatile ServiceRegistration<ApplianceStarted> started;

  @Activate
  public StartupCheck(
      BundleContext context, StartupConfig config, @Reference ServiceComponentRuntime components) {
    this.context = context;
    this.components = components;
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
    // Measured on the monotonic clock: a clock stepped at boot must not end the wait early.
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    List<String> missing = missing(required, this::up);
    List<String> activating = List.of();
    List<String> failed = List.of();
    long failingSince = 0;
    boolean failing = false;
    int settled = 0;
    while (System.nanoTime() - deadline < 0) {
      // A required service whose component failed to activate, and still has after a grace
      // period, will not come: say so now rather than at the timeout.
      failed = missing(missing, this::notFailed);
      if (failed.isEmpty()) {
        failing = false;
      } else if (!failing) {
        failing = true;
        failingSince = System.nanoTime();
      } else if (System.nanoTime() - failingSince >= FAILED_GRACE_MILLIS * 1_000_000L) {
        break;
      }
      if (missing.isEmpty()) {
        activating = activating();
        // Settled twice in a row: a component that just went can bring one back a moment later.
        settled = activating.isEmpty() ? settled + 1 : 0;
        if (settled >= 2) {
          break;
        }
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      missing = missing(required, this::up);
    }
    if (missing.isEmpty()) {
      if (!activating.isEmpty()) {
        LOG.log(
            Level.WARNING,
            "Components still activating {0} s after the framework started: {1}; starting"
                + " without waiting for them",
            timeoutMillis / 1000,
            activating);
      }
      started =
          context.registerService(
              ApplianceStarted.class, new Started(Instant.now()), new Hashtable<>());
      LOG.log(Level.INFO, "Bulwark started: every required service is up");
      showNotices();
      return;
    }
    String message =
        failed.isEmpty()
            ? "Bulwark cannot start: "
                + String.join(", ", missing)
                + " did not come up within "
                + timeoutMillis / 1000
                + " s; the errors above say why"
            : "Bulwark cannot start: "
                + String.join(", ", failed)
                + " failed to start; the errors above say why";
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
   * shows as registered). The state of a Declarative Services component is read from the runtime
   * (an immediate component still activating is not up yet): asking for its service object would
   * wait on the lock DS holds while it activates, and fail with an error on a busy machine. A
   * delayed component, or a service registered by hand, is up if its service object can be got.
   */
  private boolean up(String objectClass) {
    try {
      ServiceReference<?> ref = context.getServiceReference(objectClass);
      if (ref == null) {
        return false;
      }
      ComponentState state = componentState(ref);
      if (state == ComponentState.ACTIVE) {
        return true;
      }
      if (state == ComponentState.NOT_ACTIVE || state == ComponentState.FAILED) {
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

  /** Returns false if the service's component is registered and failed to activate. */
  private boolean notFailed(String objectClass) {
    try {
      ServiceReference<?> ref = context.getServiceReference(objectClass);
      return ref == null || componentState(ref) != ComponentState.FAILED;
    } catch (IllegalStateException stopping) {
      return true;
    }
  }

  /**
   * Returns the immediate components that DS is activating now (satisfied, not active yet): while
   * there is one, some area of the appliance may not answer yet.
   */
  private List<String> activating() {
    List<String> names = new ArrayList<>();
    for (ComponentDescriptionDTO d : components.getComponentDescriptionDTOs()) {
      if (!d.immediate) {
        continue;
      }
      for (ComponentConfigurationDTO c : components.getComponentConfigurationDTOs(d)) {
        if (c.state == ComponentConfigurationDTO.SATISFIED) {
          names.add(d.name);
        }
      }
    }
    return names;
  }

  private record Started(Instant at) implements ApplianceStarted {}

  /** What the DS runtime says of the component behind a service. */
  enum ComponentState {
    /** Activated. */
    ACTIVE,
    /** Not activated: unsatisfied, or an immediate component still activating. */
    NOT_ACTIVE,
    /** Its activation failed (the component threw): it stays so until something changes. */
    FAILED,
    /** A delayed component not activated yet, or a service not registered by DS. */
    ON_REQUEST
  }

  private ComponentState componentState(ServiceReference<?> ref) {
    Object name = ref.getProperty(ComponentConstants.COMPONENT_NAME);
    Object id = ref.getProperty(ComponentConstants.COMPONENT_ID);
    if (!(name instanceof String) || !(id instanceof Long) || ref.getBundle() == null) {
      return ComponentState.ON_REQUEST;
    }
    ComponentDescriptionDTO description =
        components.getComponentDescriptionDTO(ref.getBundle(), (String) name);
    if (description == null) {
      return ComponentState.ON_REQUEST;
    }
    for (ComponentConfigurationDTO c : components.getComponentConfigurationDTOs(description)) {
      if (c.id == (Long) id) {
        return state(c.state, description.immediate);
      }
    }
    return ComponentState.NOT_ACTIVE;
  }

  /** The state of a component configuration in DS's terms, as {@link #up} reads it. */
  static ComponentState state(int dtoState, boolean immediate) {
    if (dtoState == ComponentConfigurationDTO.ACTIVE) {
      return ComponentState.ACTIVE;
    }
    if (dtoState == ComponentConfigurationDTO.SATISFIED && !immediate) {
      return ComponentState.ON_REQUEST;
    }
    if (dtoState == ComponentConfigurationDTO.FAILED_ACTIVATION) {
      return ComponentState.FAILED;
    }
    return ComponentState.NOT_ACTIVE;
  }

  /** Returns the required services that {@code present} says are not registered. */
  static List<String> missing(List<String> required, Predicate<String> present) {
    return required.stream().filter(present.negate()).toList();
  }

  @Deactivate
  void deactivate() {
    context.removeFrameworkListener(this);
    ServiceRegistration<ApplianceStarted> mark = started;
    if (mark != null) {
      started = null;
      try {
        mark.unregister();
      } catch (IllegalStateException alreadyGone) {
        // the framework is stopping
      }
    }
    Thread w = watcher;
    if (w != null) {
      w.interrupt();
    }
  }
}
