package io.bulwark.itest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.HealthService;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * Plugins really are plugins: the detector bundle is stopped and uninstalled while the appliance
 * runs, the rest keeps serving, and an updated version of it is installed and takes part again, all
 * without a restart.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class HotSwapTest {
  private static final String DETECTORS = "bulwark.health.dcgm";

  @InjectBundleContext BundleContext context;

  @Test
  void aDetectorBundleIsRemovedAndAnUpdatedOneInstalledWithoutARestart(
      @InjectService(timeout = 10_000) HealthService health) throws Exception {
    int port = WebPort.configure(context);
    HttpClient http = AdminHttps.client(context);
    String bearer = AdminHttps.adminToken(context);
    Bundle detectors = bundle(DETECTORS);
    byte[] original = read(detectors);
    await(() -> health.detectors().size() >= 5, "detectors take part");
    List<String> before = List.copyOf(health.detectors());
    List<String> plugged = detectorNames(detectors);
    assertThat(plugged).as("detectors of %s", DETECTORS).hasSizeGreaterThanOrEqualTo(5);
    List<String> others = before.stream().filter(d -> !plugged.contains(d)).toList();

    // given the detector plugin is stopped and uninstalled
    detectors.stop();
    detectors.uninstall();

    // then its detectors leave, and the rest keeps serving
    await(
        () -> health.detectors().stream().noneMatch(plugged::contains),
        "detectors leave with their bundle");
    assertThat(health.detectors()).containsExactlyInAnyOrderElementsOf(others);
    CapacityReport first = health.capacity();
    await(() -> health.capacity().at().isAfter(first.at()), "the engine keeps evaluating");
    HttpResponse<String> status =
        http.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/api/v1/health"))
                .header("Authorization", "Bearer " + bearer)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body()).doesNotContain(DETECTORS);
    assertThat(bundleIfPresent(DETECTORS)).isNull();

    // when an updated version is installed from its jar
    java.nio.file.Path jar = java.nio.file.Files.createTempFile("bulwark-updated-", ".jar");
    java.nio.file.Files.write(jar, withVersion(original, "0.1.1.hotswap"));
    // Installed through the framework's own context: the test's context would uninstall it after
    // the test, and the appliance must keep its detectors for the tests that follow.
    Bundle updated = context.getBundle(0).getBundleContext().installBundle(jar.toUri().toString());
    updated.start();

    // then it takes part again
    assertThat(updated.getVersion()).isEqualTo(Version.parseVersion("0.1.1.hotswap"));
    await(() -> health.detectors().containsAll(plugged), "updated detectors take part");
    assertThat(health.detectors()).containsExactlyInAnyOrderElementsOf(before);
    HttpResponse<String> after =
        http.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/api/v1/health"))
                .header("Authorization", "Bearer " + bearer)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(after.body()).contains(DETECTORS).contains("0.1.1.hotswap");
  }

  /** Returns the names of the detectors {@code bundle} registers. */
  private List<String> detectorNames(Bundle bundle) {
    List<String> names = new ArrayList<>();
    ServiceReference<?>[] registered = bundle.getRegisteredServices();
    for (ServiceReference<?> ref : registered == null ? new ServiceReference<?>[0] : registered) {
      if (Arrays.asList((String[]) ref.getProperty("objectClass"))
          .contains(Detector.class.getName())) {
        Detector detector = (Detector) context.getService(ref);
        try {
          names.add(detector.name());
        } finally {
          context.ungetService(ref);
        }
      }
    }
    return names;
  }

  private Bundle bundle(String symbolicName) {
    Bundle b = bundleIfPresent(symbolicName);
    assertThat(b).as("bundle %s", symbolicName).isNotNull();
    return b;
  }

  private Bundle bundleIfPresent(String symbolicName) {
    return Arrays.stream(context.getBundles())
        .filter(b -> symbolicName.equals(b.getSymbolicName()))
        .findFirst()
        .orElse(null);
  }

  static byte[] read(Bundle bundle) throws IOException {
    String location = bundle.getLocation().replaceFirst("^reference:", "");
    try (InputStream in =
        URI.create(location.contains(":") ? location : "file:" + location).toURL().openStream()) {
      return in.readAllBytes();
    }
  }

  /** Returns the jar with its Bundle-Version replaced, as a rebuilt plugin would be. */
  private static byte[] withVersion(byte[] jar, String version) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      Manifest manifest = new Manifest(in.getManifest());
      manifest.getMainAttributes().put(new Attributes.Name("Bundle-Version"), version);
      try (JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
        for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
          jarOut.putNextEntry(new JarEntry(e.getName()));
          in.transferTo(jarOut);
          jarOut.closeEntry();
        }
      }
    }
    return out.toByteArray();
  }

  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 20_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(100);
    }
  }
}
