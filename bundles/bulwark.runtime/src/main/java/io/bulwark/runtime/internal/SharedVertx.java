package io.bulwark.runtime.internal;

import io.bulwark.api.system.InboundConnections;
import io.bulwark.api.system.SteadyClock;
import io.bulwark.api.system.SubsystemCheck;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.transport.Transport;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Owns the one Vert.x instance of the appliance and offers it as an {@link Vertx} OSGi service, so
 * that the web plane, the scrapers and the simulator share event loops instead of each starting
 * their own. Its transport admits every inbound connection through {@link ConnectionAdmission},
 * offered as {@link InboundConnections} and reported as the {@code connections} subsystem.
 */
@Component(
    immediate = true,
    configurationPid = SharedVertx.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ConnectionsConfig.class)
public final class SharedVertx {
  static final String PID = "io.bulwark.runtime.connections";
  private static final System.Logger LOG = System.getLogger(SharedVertx.class.getName());
  private static final long SAMPLE_MILLIS = 500;

  private final Vertx vertx;
  private final ConnectionAdmission admission;
  private final ScheduledExecutorService sampler;
  private final List<ServiceRegistration<?>> registrations = new ArrayList<>();

  @Activate
  public SharedVertx(BundleContext context, ConnectionsConfig config) {
    this.admission =
        new ConnectionAdmission(
            OpenFiles.ofThisProcess(config.fileDescriptorReserve()), SteadyClock.system());
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Vert.x looks up its service providers through the context class loader: point it at the
    // Vert.x bundle.
    thread.setContextClassLoader(Vertx.class.getClassLoader());
    try {
      this.vertx =
          Vertx.builder()
              .with(new VertxOptions().setPreferNativeTransport(false))
              .withTransport(new GuardedTransport(Transport.NIO, new AcceptGate(admission)))
              .build();
    } finally {
      thread.setContextClassLoader(previous);
    }
    this.sampler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-open-files");
              t.setDaemon(true);
              return t;
            });
    sampler.scheduleWithFixedDelay(
        admission::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    registrations.add(context.registerService(Vertx.class, vertx, null));
    registrations.add(context.registerService(InboundConnections.class, admission, null));
    registrations.add(context.registerService(SubsystemCheck.class, admission, null));
    OpenFiles files = admission.files();
    LOG.log(
        Level.DEBUG,
        "Vert.x started; open-file limit "
            + files.limit()
            + ", "
            + files.reserve()
            + " kept from inbound connections");
  }

  @Modified
  void modified(ConnectionsConfig config) {
    admission.files().reserve(config.fileDescriptorReserve());
  }

  @Deactivate
  void stop() {
    for (ServiceRegistration<?> registration : registrations) {
      try {
        registration.unregister();
      } catch (IllegalStateException alreadyGone) {
        LOG.log(Level.DEBUG, "Vert.x service already unregistered");
      }
    }
    sampler.shutdownNow();
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.log(Level.WARNING, "Vert.x did not close within 10 s: {0}", e.toString());
    }
  }
}
