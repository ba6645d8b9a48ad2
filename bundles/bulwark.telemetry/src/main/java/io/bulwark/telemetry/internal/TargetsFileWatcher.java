package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.ScrapeTarget;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Watches the file_sd targets file: each {@link #poll} looks at its modification time and size and,
 * when they changed, reads it again and hands the new target list on. A file that is missing,
 * unreadable or malformed leaves the previous list in place; the problem is logged once and kept in
 * {@link #problem()} until the file is good again. Polling is safe from any thread; calls are
 * serialised.
 */
final class TargetsFileWatcher {
  private static final System.Logger LOG = System.getLogger(TargetsFileWatcher.class.getName());

  private final Path file;
  private final Consumer<List<ScrapeTarget>> onTargets;
  private List<ScrapeTarget> targets = List.of();
  private Object seenVersion;
  private volatile String problem = "";

  TargetsFileWatcher(Path file, Consumer<List<ScrapeTarget>> onTargets) {
    this.file = Objects.requireNonNull(file, "file");
    this.onTargets = Objects.requireNonNull(onTargets, "onTargets");
  }

  /** Reads the file again if it changed since the last poll. */
  synchronized void poll() {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      seenVersion = null;
      report(
          Level.INFO,
          "targets file "
              + file
              + " does not exist (yet); Bulwark checks it every second and"
              + " starts scraping when it appears"
              + keptTargets());
      return;
    } catch (IOException e) {
      seenVersion = null;
      report(
          Level.WARNING,
          "cannot read targets file " + file + ": " + e.getMessage() + keptTargets());
      return;
    }
    Object version =
        List.of(
            attributes.lastModifiedTime(), attributes.size(), String.valueOf(attributes.fileKey()));
    if (version.equals(seenVersion)) {
      return;
    }
    List<ScrapeTarget> read;
    try {
      read = TargetsFile.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      seenVersion = version;
      report(
          Level.WARNING,
          "targets file " + file + " is malformed, fix it: " + e.getMessage() + keptTargets());
      return;
    }
    seenVersion = version;
    if (!problem.isEmpty()) {
      LOG.log(Level.INFO, "Targets file {0} is readable", file);
      problem = "";
    }
    if (!read.equals(targets)) {
      targets = read;
      LOG.log(Level.INFO, "Read {0} scrape targets from {1}", read.size(), file);
      onTargets.accept(read);
    }
  }

  /** Returns the targets of the last good read of the file. */
  synchronized List<ScrapeTarget> targets() {
    return targets;
  }

  /** Returns what is wrong with the targets file, or an empty string if the last read was good. */
  String problem() {
    return problem;
  }

  Path file() {
    return file;
  }

  private void report(Level level, String message) {
    boolean repeated = message.equals(problem);
    problem = message;
    if (!repeated) {
      LOG.log(level, message);
    }
  }

  private String keptTargets() {
    return targets.isEmpty() ? "" : "; still scraping the previous " + targets.size() + " targets";
  }
}
