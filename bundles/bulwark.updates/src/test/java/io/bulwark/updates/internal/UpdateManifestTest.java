package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

/** The manifest is read strictly: whatever it says that this appliance cannot honour refuses it. */
class UpdateManifestTest {
  private static JsonObject good() {
    return new JsonObject()
        .put("format", 1)
        .put("version", "0.2.0")
        .put("appliesTo", new JsonArray().add("[0.1.0,0.2.0)"))
        .put("restart", false)
        .put("notes", "Faster scrapes.")
        .put("revokes", new JsonArray())
        .put(
            "files",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("path", "bundles/a.jar")
                        .put("size", 5)
                        .put("sha384", "ab".repeat(48))));
  }

  private static UpdateManifest parse(JsonObject o) {
    return UpdateManifest.parse(o.encode().getBytes(StandardCharsets.UTF_8));
  }

  private static void refused(Consumer<JsonObject> change, String message) {
    JsonObject o = good();
    change.accept(o);
    assertThatThrownBy(() -> parse(o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void aGoodManifestReadsBackAsItWasWritten() {
    UpdateManifest m = parse(good());
    assertThat(UpdateManifest.parse(m.encode())).isEqualTo(m);
    assertThat(m.appliesTo(Version.parseVersion("0.1.5"))).isTrue();
    assertThat(m.totalBytes()).isEqualTo(5);
  }

  @Test
  void whatItCannotHonourRefusesIt() {
    refused(o -> o.put("postInstall", "rm -rf /"), "unknown field 'postInstall'");
    refused(o -> o.put("format", 2), "this appliance reads 1");
    refused(o -> o.put("version", "two"), "version is not a version");
    refused(o -> o.put("appliesTo", new JsonArray()), "names no version range");
    refused(o -> o.put("appliesTo", new JsonArray().add("0.1.x")), "not a version range");
    refused(o -> o.put("restart", "no"), "restart is true or false");
    refused(o -> o.remove("notes"), "no release notes");
    refused(o -> o.put("revokes", new JsonArray().add("not-hex")), "not a key id");
    refused(
        o -> o.getJsonArray("files").getJsonObject(0).put("path", "../a.jar"), "leaves its folder");
    refused(
        o -> o.getJsonArray("files").add(o.getJsonArray("files").getJsonObject(0).copy()),
        "lists 'bundles/a.jar' twice");
    refused(o -> o.getJsonArray("files").getJsonObject(0).put("size", -1), "not a whole number");
    refused(o -> o.getJsonArray("files").getJsonObject(0).put("size", 1.5), "not a whole number");
    refused(o -> o.getJsonArray("files").getJsonObject(0).put("sha384", "ab"), "not 96 hex digits");
    assertThatThrownBy(() -> UpdateManifest.parse("[1]".getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> UpdateManifest.parse(new byte[UpdateManifest.MAX_BYTES + 1]))
        .hasMessageContaining("at most");
  }
}
