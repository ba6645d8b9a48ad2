package io.bulwark.runtime.internal;

import java.lang.System.Logger.Level;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Stops the OSGi framework when the JVM is asked to end (SIGTERM, SIGINT, Ctrl-C), so that every
 * component is deactivated and the store is closed before the process exits. Without it the
 * launcher would exit with the framework still running.
 */
@Component(immediate = true)
public final class GracefulShutdown {
  private static final System.Logger LOG = System.getLogger(GracefulShutdown.class.getName());
  static final long STOP_TIMEOUT_MILLIS = 30_000;

  private final Thread hook;
  private volatile boolean stoppedByHook;

  @Activate
  public GracefulShutdown(BundleContext context) {
    Framework framework = (Framework) context.getBundle(0);
    this.hook = new Thread(() -> stopFramework(framework), "bulwark-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private void stopFramework(Framework framework) {
    stoppedByHook = true;
    // java.util.logging resets its handlers in its own shutdown hook: report on stderr directly.
    System.err.println("Bulwark: shutdown requested, stopping components and closing the store");
    try {
      framework.stop();
      FrameworkEvent event = framework.waitForStop(STOP_TIMEOUT_MILLIS);
      if (event.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
        System.err.println(
            "Bulwark: did not stop within " + STOP_TIMEOUT_MILLIS + " ms; exiting anyway");
      } else {
        System.err.println("Bulwark: stopped");
      }
    } catch (BundleException e) {
      System.err.println("Bulwark: stopping the framework failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Deactivate
  void deactivate() {
    if (stoppedByHook) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      LOG.log(Level.DEBUG, "JVM already shutting down");
    }
  }
}
