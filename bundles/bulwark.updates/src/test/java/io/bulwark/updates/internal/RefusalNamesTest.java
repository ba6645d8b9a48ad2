package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditRecord;
import io.bulwark.testing.RecordingAuditLog;
import io.bulwark.testing.TypedConfig;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;
import org.osgi.service.resolver.Resolver;

/**
 * What the updater tells admins (the API's answers, the job, the history, the audit log) names the
 * server's files relative to the data folder, and packages by their name on the update stick: never
 * by an absolute path. The updater runs against a framework that holds no bundles.
 */
class RefusalNamesTest {
  @TempDir Path dir;
  private final RecordingAuditLog audit = new RecordingAuditLog();
  private Path data;
  private UpdateService updates;

  @BeforeEach
  void start() throws Exception {
    data = dir.resolve("bulwark-data").toAbsolutePath();
    Files.createDirectories(data.resolve("usb"));
    updates =
        new UpdateService(
            framework(),
            TypedConfig.of(
                UpdatesConfig.class,
                Map.of(
                    "keyFolders",
                    new String[] {data.resolve("keys").toString()},
                    "watchFolder",
                    data.resolve("usb").toString(),
                    "repository",
                    data.resolve("offline-repo").toString(),
                    "stateFolder",
                    data.resolve("updates").toString())),
            audit,
            proxy(Resolver.class, Map.of()),
            Map.of());
    awaitIdle();
  }

  @Test
  void aPackageThatIsNoZipIsRefusedNamingItsCopyInTheDataFolder() throws Exception {
    Path upload = updates.incoming();
    Files.writeString(upload, "not a zip");

    UpdateService.Job j = updates.installUploaded(upload, "bad.bwu", false, "admin", "10.0.0.9");
    awaitIdle();

    assertThat(j.message)
        .contains("updates/incoming/upload-")
        .contains("is not an update package (ZIP)");
    assertNamedRelatively(j.message);
    assertNamedRelatively(updates.history().get(0).encode());
    assertNamedRelatively(
        audit.records.stream().map(r -> r.event().toString()).toList().toString());
  }

  @Test
  void aKeyFileThatHoldsNoKeyIsNamedInTheKeysFolder() throws Exception {
    Files.createDirectories(data.resolve("keys"));
    Files.writeString(data.resolve("keys").resolve("release.ecdsa.pem"), "no key here");
    Path upload = updates.incoming();
    Files.writeString(upload, "not a zip");

    UpdateService.Job j = updates.installUploaded(upload, "bad.bwu", false, "admin", "10.0.0.9");
    awaitIdle();

    assertThat(j.message).contains("keys/release.ecdsa.pem holds no single PEM PUBLIC KEY");
    assertNamedRelatively(j.message);
    for (AuditRecord r : audit.records) {
      assertNamedRelatively(r.event().details().toString());
    }
  }

  @Test
  void aPackageTheStickDoesNotHoldAndTheStickItselfAreNamedWithoutTheirPath() throws Exception {
    assertThatThrownBy(() -> updates.installFromStick("missing.bwu", false, "admin", "10.0.0.9"))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining("missing.bwu")
        .satisfies(e -> assertNamedRelatively(e.getMessage()));
    JsonObject stick = updates.status().getJsonObject("stick");
    assertThat(stick.getString("folder")).isEqualTo("usb");
    assertNamedRelatively(updates.status().encode());
  }

  private void assertNamedRelatively(String text) {
    assertThat(text)
        .as("what an admin reads")
        .doesNotContain(data.toString())
        .doesNotContain(dir.toAbsolutePath().toString());
  }

  private void awaitIdle() throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (!"done".equals(updates.status().getJsonObject("job").getString("phase"))) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("the updater is still busy: " + updates.status().encode());
      }
      Thread.sleep(20);
    }
  }

  /** A framework that has started and holds no bundle but itself and the updater. */
  private static BundleContext framework() {
    Bundle self =
        proxy(
            Bundle.class,
            Map.of(
                "getVersion",
                Version.parseVersion("0.2.0"),
                "getSymbolicName",
                UpdateService.SELF,
                "getBundleId",
                7L,
                "getState",
                Bundle.ACTIVE));
    Bundle system =
        proxy(
            Bundle.class,
            Map.of("getBundleId", 0L, "getState", Bundle.ACTIVE, "getSymbolicName", "system"));
    return (BundleContext)
        Proxy.newProxyInstance(
            RefusalNamesTest.class.getClassLoader(),
            new Class<?>[] {BundleContext.class},
            (p, m, args) ->
                switch (m.getName()) {
                  case "getBundle" -> args == null || (long) args[0] != 0 ? self : system;
                  case "getBundles" -> new Bundle[] {system};
                  default -> defaultValue(m.getReturnType());
                });
  }

  private static <T> T proxy(Class<T> type, Map<String, Object> answers) {
    return type.cast(
        Proxy.newProxyInstance(
            RefusalNamesTest.class.getClassLoader(),
            new Class<?>[] {type},
            (p, m, args) ->
                answers.containsKey(m.getName())
                    ? answers.get(m.getName())
                    : switch (m.getName()) {
                      case "hashCode" -> System.identityHashCode(p);
                      case "equals" -> p == args[0];
                      case "toString" -> type.getSimpleName();
                      default -> defaultValue(m.getReturnType());
                    }));
  }

  private static Object defaultValue(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == int.class) {
      return 0;
    }
    return type == List.class ? List.of() : null;
  }
}
