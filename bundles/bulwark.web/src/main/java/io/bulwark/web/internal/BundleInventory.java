package io.bulwark.web.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * The bundles installed in the framework with their symbolic name, version and state, for the
 * health page. Reads the framework live on every call; thread-safe.
 */
@FunctionalInterface
interface BundleInventory {

  /** One installed bundle; {@code state} is the OSGi state in lower case (e.g. {@code active}). */
  record InstalledBundle(long id, String symbolicName, String version, String state) {}

  /** Returns every installed bundle, by bundle id. */
  List<InstalledBundle> bundles();

  /** Returns the inventory of the framework that {@code context} belongs to. */
  static BundleInventory of(BundleContext context) {
    Objects.requireNonNull(context, "bundle context");
    return () -> {
      List<InstalledBundle> result = new ArrayList<>();
      for (Bundle b : context.getBundles()) {
        result.add(
            new InstalledBundle(
                b.getBundleId(),
                Objects.requireNonNullElse(b.getSymbolicName(), ""),
                String.valueOf(b.getVersion()),
                stateName(b.getState())));
      }
      return result;
    };
  }

  /** Returns the name of an OSGi bundle state. */
  static String stateName(int state) {
    return switch (state) {
      case Bundle.UNINSTALLED -> "uninstalled";
      case Bundle.INSTALLED -> "installed";
      case Bundle.RESOLVED -> "resolved";
      case Bundle.STARTING -> "starting";
      case Bundle.STOPPING -> "stopping";
      case Bundle.ACTIVE -> "active";
      default -> "unknown";
    };
  }
}
