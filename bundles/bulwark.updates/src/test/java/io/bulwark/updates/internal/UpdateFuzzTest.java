package io.bulwark.updates.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Fuzzes what the appliance reads from a stick or an upload before it trusts it: any bytes must be
 * a manifest that reads back as it is written, or be refused with an {@link
 * IllegalArgumentException}; any file must be refused as a package (no key of the suite signed it)
 * with an {@link IllegalArgumentException} or an {@link IOException}, never anything else, and
 * leave the staging folder empty. Without {@code JAZZER_FUZZ} these run the corpus in {@code
 * src/test/resources/io/bulwark/updates/internal/UpdateFuzzTestInputs} as regression tests; the
 * module's fuzz executions run each for a fixed time with it set.
 */
class UpdateFuzzTest {
  private static UpdateKeys keys;
  private static Path dir;

  private static synchronized UpdateKeys keys() {
    if (keys == null) {
      try {
        dir = Files.createTempDirectory("bulwark-update-fuzz");
        TestPackages.identity("fuzz").trust(dir.resolve("keys"));
        keys = UpdateKeys.load(List.of(dir.resolve("keys")));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    return keys;
  }

  @FuzzTest(maxDuration = "20s")
  void manifest(byte[] data) {
    UpdateManifest m;
    try {
      m = UpdateManifest.parse(data);
    } catch (IllegalArgumentException e) {
      return;
    }
    if (!UpdateManifest.parse(m.encode()).equals(m)) {
      throw new AssertionError("a manifest did not read back as it was written");
    }
  }

  @FuzzTest(maxDuration = "20s")
  void pkg(byte[] data) throws IOException {
    UpdateKeys trusted = keys();
    Path file = dir.resolve("input.bwu");
    Path staging = Files.createDirectories(dir.resolve("staging"));
    Files.write(file, data);
    try {
      UpdatePackage.verify(file, trusted, Set.of(), staging);
      throw new AssertionError("a package no trusted key signed was accepted");
    } catch (IllegalArgumentException | IOException e) {
      // refused, as it should be
    }
    try (var left = Files.list(staging)) {
      if (left.findAny().isPresent()) {
        throw new AssertionError("a refused package left files in the staging folder");
      }
    } catch (UncheckedIOException e) {
      throw e;
    }
  }
}
