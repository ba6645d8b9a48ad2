package io.bulwark.health.scenarios;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads the scenario files of the suite from {@code scenarios/} on the test class path. */
final class ScenarioFiles {
  private ScenarioFiles() {}

  /** Returns every scenario, sorted by file name. */
  static List<Scenario> all() {
    URL root = ScenarioFiles.class.getClassLoader().getResource("scenarios");
    if (root == null) {
      throw new IllegalStateException("no scenarios/ folder on the test class path");
    }
    List<Scenario> scenarios = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
      for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        String name = p.getFileName().toString();
        try {
          scenarios.add(Scenario.parse(name, Files.readString(p, StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
          throw new IllegalArgumentException("scenario " + name + " is not valid: " + e, e);
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot read the scenarios", e);
    }
    return scenarios;
  }

  /** Returns the scenario named {@code name}. */
  static Scenario named(String name) {
    return all().stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no scenario " + name));
  }
}
