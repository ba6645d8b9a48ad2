package io.bulwark.updates.internal;

import io.bulwark.api.update.UpdateCheck;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.crypto.fips.FipsStatus;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;

/**
 * The health check after a hot swap: every bundle of the new set active, the role's required
 * services registered (the start-up check's list), the crypto module ready in approved-only mode
 * and answering a known-answer test, the admin plane accepting connections, and every {@link
 * UpdateCheck} a bundle contributes quiet. It waits up to its deadline for bundles and services
 * (Declarative Services activates components after their bundle starts), then checks the rest.
 */
final class SetHealth {
  /** SHA-384("abc"), FIPS 180-4 example. */
  private static final String SHA384_ABC =
      "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
          + "8086072ba1e7cc2358baeca134c825a7";

  private final BundleContext context;
  private final List<String> requiredServices;
  private final InetSocketAddress adminPlane;

  SetHealth(BundleContext context, List<String> requiredServices, InetSocketAddress adminPlane) {
    this.context = context;
    this.requiredServices = List.copyOf(requiredServices);
    this.adminPlane = adminPlane;
  }

  /**
   * Checks the running framework against {@code set}.
   *
   * @return the problems in words; empty if the set is healthy
   */
  List<String> check(BundleSet set, long deadlineMillis) {
    List<String> problems;
    do {
      problems = new ArrayList<>();
      problems.addAll(inactive(set));
      problems.addAll(missingServices());
      if (problems.isEmpty() || System.currentTimeMillis() > deadlineMillis) {
        break;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problems.add("the health check was interrupted");
        return problems;
      }
    } while (true);
    crypto().ifPresent(problems::add);
    adminPlane().ifPresent(problems::add);
    problems.addAll(contributed());
    return problems;
  }

  private List<String> inactive(BundleSet set) {
    List<String> out = new ArrayList<>();
    Map<String, Bundle> running = new java.util.HashMap<>();
    for (Bundle b : context.getBundles()) {
      if (b.getSymbolicName() != null && b.getState() != Bundle.UNINSTALLED) {
        running.put(b.getSymbolicName(), b);
      }
    }
    for (var e : set.bundles().entrySet()) {
      Bundle b = running.get(e.getKey());
      if (b == null) {
        out.add(e.getKey() + " is not installed");
      } else if (!Swapper.fragment(b) && b.getState() != Bundle.ACTIVE) {
        out.add(e.getKey() + " " + b.getVersion() + " is " + state(b.getState()) + ", not active");
      }
    }
    return out;
  }

  private List<String> missingServices() {
    List<String> out = new ArrayList<>();
    for (String s : requiredServices) {
      if (context.getServiceReference(s) == null) {
        out.add("the required service " + s + " is not registered");
      }
    }
    return out;
  }

  private static Optional<String> crypto() {
    try {
      if (!FipsStatus.isReady()) {
        return Optional.of("the FIPS crypto module is not ready: " + FipsStatus.getStatusMessage());
      }
      if (!CryptoServicesRegistrar.isInApprovedOnlyMode()) {
        return Optional.of("the FIPS crypto module is not in approved-only mode");
      }
      String d =
          HexFormat.of()
              .formatHex(
                  MessageDigest.getInstance("SHA-384", "BCFIPS")
                      .digest("abc".getBytes(StandardCharsets.US_ASCII)));
      return d.equals(SHA384_ABC)
          ? Optional.empty()
          : Optional.of("the crypto module's SHA-384 answered wrongly");
    } catch (GeneralSecurityException | RuntimeException e) {
      return Optional.of("the crypto self-test failed: " + e);
    }
  }

  private Optional<String> adminPlane() {
    if (adminPlane == null) {
      return Optional.empty();
    }
    try (Socket s = new Socket()) {
      s.connect(adminPlane, 5_000);
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(
          "the admin plane does not answer on " + adminPlane + ": " + e.getMessage());
    }
  }

  private List<String> contributed() {
    List<String> out = new ArrayList<>();
    java.util.Collection<ServiceReference<UpdateCheck>> refs;
    try {
      refs = context.getServiceReferences(UpdateCheck.class, null);
    } catch (InvalidSyntaxException e) {
      throw new IllegalStateException(e);
    }
    for (ServiceReference<UpdateCheck> ref : refs) {
      UpdateCheck c = context.getService(ref);
      if (c == null) {
        continue;
      }
      try {
        c.problem().ifPresent(p -> out.add(c.name() + ": " + p));
      } catch (RuntimeException e) {
        out.add(c.name() + " failed: " + e);
      } finally {
        context.ungetService(ref);
      }
    }
    return out;
  }

  static String state(int s) {
    return switch (s) {
      case Bundle.INSTALLED -> "installed (unresolved)";
      case Bundle.RESOLVED -> "resolved (stopped)";
      case Bundle.STARTING -> "starting";
      case Bundle.STOPPING -> "stopping";
      case Bundle.ACTIVE -> "active";
      default -> "uninstalled";
    };
  }
}
