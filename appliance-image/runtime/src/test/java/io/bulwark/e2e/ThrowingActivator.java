package io.bulwark.e2e;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * Put into a rebuilt bundle by {@link OfflineUpdateIT}: a bundle whose activator throws, which the
 * update's health check must catch and roll back.
 */
public final class ThrowingActivator implements BundleActivator {
  @Override
  public void start(BundleContext context) {
    throw new IllegalStateException("this build of the bundle is broken on purpose");
  }

  @Override
  public void stop(BundleContext context) {}
}
