package io.bulwark.testing.redfish;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the DMTF Redfish mockups are: the folder named by the system property {@code
 * bulwark.redfish.mockups} (the build sets it to {@code ../shared/data/redfish} next to the
 * checkout). A test that needs them fails with this message when they are missing, never skips.
 */
public final class RedfishMockups {
  private RedfishMockups() {}

  /** Returns the folder of the mockups. */
  public static Path folder() {
    String configured = System.getProperty("bulwark.redfish.mockups");
    Path folder =
        Path.of(configured == null ? "../shared/data/redfish" : configured)
            .toAbsolutePath()
            .normalize();
    if (!Files.isDirectory(folder)) {
      throw new IllegalStateException(
          "The DMTF Redfish mockups are not at "
              + folder
              + ": the BMC tests serve them (set -Dbulwark.redfish.mockups to their folder)");
    }
    return folder;
  }

  /** Returns the mockup named {@code name}, e.g. {@code public-rackmount1}. */
  public static Path mockup(String name) {
    Path m = folder().resolve(name);
    if (!Files.isRegularFile(m.resolve("index.json"))) {
      throw new IllegalStateException("There is no Redfish mockup " + name + " in " + folder());
    }
    return m;
  }

  /** Returns every mockup in the folder (each a folder with an index.json), by name. */
  public static List<Path> all() {
    try (Stream<Path> listing = Files.list(folder())) {
      return listing.filter(p -> Files.isRegularFile(p.resolve("index.json"))).sorted().toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
