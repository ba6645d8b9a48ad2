package io.bulwark.runtime.internal;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Owns the one Vert.x instance of the appliance and offers it as an {@link Vertx} OSGi service, so
 * that the web plane, the scrapers and the simulator share event loops instead of each starting
 * their own.
 */
@Component(immediate = true)
public final class SharedVertx {
  private static final System.Logger LOG = System.getLogger(SharedVertx.class.getName());

  private final Vertx vertx;
  private final ServiceRegistration<Vertx> registration;

  @Activate
  public SharedVertx(BundleContext context) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Vert.x looks up its service providers through the context class loader: point it at the
    // Vert.x bundle.
    thread.setContextClassLoader(Vertx.class.getClassLoader());
    try {
      this.vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(false));
    } finally {
      thread.setContextClassLoader(previous);
    }
    this.registration = context.registerService(Vertx.class, vertx, null);
    LOG.log(Level.DEBUG, "Vert.x started");
  }

  @Deactivate
  void stop() {
    try {
      registration.unregister();
    } catch (IllegalStateException alreadyGone) {
      LOG.log(Level.DEBUG, "Vert.x service already unregistered");
    }
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.log(Level.WARNING, "Vert.x did not close within 10 s: {0}", e.toString());
    }
  }
}
