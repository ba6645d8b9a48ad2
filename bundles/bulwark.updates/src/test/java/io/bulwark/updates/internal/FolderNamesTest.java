package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Absolute paths in messages become names relative to the folders admins know. */
class FolderNamesTest {
  private final FolderNames names =
      new FolderNames(
          Path.of("/var/lib/bulwark"), Path.of("/var/lib/bulwark/usb"), Path.of("/opt/bulwark"));

  @Test
  void filesAreNamedRelativeToTheDataFolderTheStickOrTheWorkingFolder() {
    assertThat(
            names.text(
                "/var/lib/bulwark/updates/incoming/upload-1f.bwu is not an update package (ZIP)"))
        .isEqualTo("updates/incoming/upload-1f.bwu is not an update package (ZIP)");
    assertThat(names.text("java.nio.file.NoSuchFileException: /var/lib/bulwark/usb/r-0.3.0.bwu"))
        .isEqualTo("java.nio.file.NoSuchFileException: stick:r-0.3.0.bwu");
    assertThat(names.text("/opt/bulwark/keys/release.ecdsa.pem holds no single PEM PUBLIC KEY"))
        .isEqualTo("keys/release.ecdsa.pem holds no single PEM PUBLIC KEY");
    assertThat(names.text("needs 256 MiB free in /var/lib/bulwark/updates, which has 12 MiB"))
        .isEqualTo("needs 256 MiB free in updates, which has 12 MiB");
    assertThat(names.text("cannot read /var/lib/bulwark/usb: gone"))
        .isEqualTo("cannot read the update stick: gone");
    assertThat(names.text("Unable to cache bundle: file:/var/lib/bulwark/offline-repo/b/x.jar"))
        .isEqualTo("Unable to cache bundle: file:offline-repo/b/x.jar");
  }

  @Test
  void onlyWholePathsAreRenamed() {
    assertThat(names.text("/srv/var/lib/bulwark/x and /var/lib/bulwark2/y"))
        .isEqualTo("/srv/var/lib/bulwark/x and /var/lib/bulwark2/y");
    assertThat(names.text("GET /api/v1/updates")).isEqualTo("GET /api/v1/updates");
  }

  @Test
  void everyTextOfAHistoryEntryIsRenamed() {
    JsonObject entry =
        new JsonObject()
            .put("reason", "/var/lib/bulwark/updates/x failed")
            .put("problems", new JsonArray().add("/var/lib/bulwark/offline-repo/a.jar: bad"))
            .put("timings", new JsonObject().put("copyMs", 12));
    assertThat(names.json(entry))
        .isEqualTo(
            new JsonObject()
                .put("reason", "updates/x failed")
                .put("problems", new JsonArray().add("offline-repo/a.jar: bad"))
                .put("timings", new JsonObject().put("copyMs", 12)));
  }

  @Test
  void aFolderInTheDataFolderIsShownRelativeElseAsConfigured() {
    assertThat(names.folder(Path.of("/var/lib/bulwark/usb"), "/var/lib/bulwark/usb"))
        .isEqualTo("usb");
    assertThat(names.folder(Path.of("/media/bulwark-update"), "/media/bulwark-update"))
        .isEqualTo("/media/bulwark-update");
  }
}
