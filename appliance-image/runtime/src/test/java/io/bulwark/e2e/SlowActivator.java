package io.bulwark.e2e;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * Put into a rebuilt bundle by {@link OfflineUpdateIT}: an activator that takes 8 s to start, so
 * that the test can kill the appliance in the middle of the swap.
 */
public final class SlowActivator implements BundleActivator {
  @Override
  public void start(BundleContext context) throws InterruptedException {
    Thread.sleep(8_000);
  }

  @Override
  public void stop(BundleContext context) {}
}
