package io.bulwark.updates.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Moves the running framework from one bundle set to another in one operation: the bundles that
 * change are stopped (transiently, so that they still start after a restart), updated, installed or
 * uninstalled, then the framework refreshes them and every bundle wired to them, and every bundle
 * of the new set that is not active is started. Bundles that do not change keep running unless they
 * are wired to one that does. The same move, reversed, is the rollback; applied again after a crash
 * it restores the target set whatever part of the move had been done.
 */
final class Swapper {
  /** How a bundle installed by an update is located (the launcher's own bundles keep theirs). */
  static final String LOCATION = "bulwark-update:";

  private final BundleContext context;
  private final Path repository;

  Swapper(BundleContext context, Path repository) {
    this.context = context;
    this.repository = repository;
  }

  /** The running bundles by symbolic name (the framework itself aside). */
  Map<String, Bundle> running() {
    Map<String, Bundle> out = new HashMap<>();
    for (Bundle b : context.getBundles()) {
      if (b.getBundleId() != 0
          && b.getState() != Bundle.UNINSTALLED
          && b.getSymbolicName() != null) {
        out.put(b.getSymbolicName(), b);
      }
    }
    return out;
  }

  /**
   * Makes the framework run {@code to}, touching only the bundles that differ from {@code from}.
   *
   * @return the bundles that could not be started, in words (the health check then fails)
   * @throws IOException if a jar of {@code to} cannot be read
   * @throws BundleException if the framework refuses a jar
   */
  List<String> apply(BundleSet from, BundleSet to) throws IOException, BundleException {
    Set<String> changed = from.changedTo(to);
    Map<String, Bundle> byName = running();
    List<Bundle> touched = new ArrayList<>();
    for (String bsn : changed) {
      Bundle b = byName.get(bsn);
      if (b != null && (b.getState() & (Bundle.ACTIVE | Bundle.STARTING)) != 0) {
        b.stop(Bundle.STOP_TRANSIENT);
      }
    }
    for (String bsn : changed) {
      BundleSet.Member m = to.bundles().get(bsn);
      Bundle b = byName.get(bsn);
      if (m == null) {
        if (b != null) {
          b.uninstall();
          touched.add(b);
        }
        continue;
      }
      try (InputStream in = open(m)) {
        if (b == null) {
          String location =
              m.embedded() ? m.source().substring(BundleSet.EMBEDDED.length()) : LOCATION + bsn;
          touched.add(context.installBundle(location, in));
        } else {
          b.update(in);
          touched.add(b);
        }
      }
    }
    refresh(touched);
    List<String> failed = new ArrayList<>();
    Map<String, Bundle> now = running();
    for (String bsn : to.bundles().keySet()) {
      Bundle b = now.get(bsn);
      if (b == null || fragment(b) || b.getState() == Bundle.ACTIVE) {
        continue;
      }
      try {
        b.start();
      } catch (BundleException | RuntimeException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        failed.add(bsn + " " + b.getVersion() + " did not start: " + cause);
      }
    }
    return failed;
  }

  private void refresh(List<Bundle> bundles) throws BundleException {
    if (bundles.isEmpty()) {
      return;
    }
    FrameworkWiring wiring = context.getBundle(0).adapt(FrameworkWiring.class);
    CountDownLatch done = new CountDownLatch(1);
    wiring.refreshBundles(
        bundles,
        e -> {
          if (e.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
            done.countDown();
          }
        });
    try {
      if (!done.await(120, TimeUnit.SECONDS)) {
        throw new BundleException("the framework did not finish refreshing within 120 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BundleException("interrupted while the framework refreshed");
    }
  }

  /** Opens the jar of a set member: from the appliance's own jar, or from the repository. */
  InputStream open(BundleSet.Member m) throws IOException {
    if (m.embedded()) {
      String location = m.source().substring(BundleSet.EMBEDDED.length());
      URL url = ClassLoader.getSystemClassLoader().getResource(location);
      if (url == null) {
        throw new IOException(
            "the bundle "
                + location
                + " is not in the appliance's jar any more; reinstall the image");
      }
      return url.openStream();
    }
    Path jar = repository.resolve(m.source().substring(BundleSet.REPO.length())).normalize();
    if (!jar.startsWith(repository)) {
      throw new IOException("the set names a jar outside the offline repository: " + m.source());
    }
    return Files.newInputStream(jar);
  }

  /** Returns true if the appliance's jar holds the bundle installed at {@code location}. */
  static boolean embedded(String location) {
    return location != null
        && location.startsWith("jar/")
        && ClassLoader.getSystemClassLoader().getResource(location) != null;
  }

  static boolean fragment(Bundle b) {
    BundleRevision r = b.adapt(BundleRevision.class);
    return r != null && (r.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
  }
}
