package io.bulwark.findings.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Maintenance;
import io.bulwark.api.health.MaintenanceWindow;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The operator's work on findings, kept in the store: notes (acknowledged, assigned, comments,
 * snoozed) by finding, and maintenance windows. It provides the windows and the snoozes as the
 * {@link Maintenance} service from memory (loaded at start, written through), so the notification
 * core can ask on every finding change without touching the disk. Windows that ended more than 30
 * days ago are removed. Thread-safe: each change is one store write.
 */
@Component(service = {Maintenance.class, Workflow.class})
public final class Workflow implements Maintenance {
  static final Duration LONGEST_SNOOZE = Duration.ofDays(30);
  static final Duration LONGEST_MAINTENANCE = Duration.ofDays(90);
  private static final Duration KEEP_ENDED = Duration.ofDays(30);

  private final RecordStore store;
  private final Clock clock;
  private final Map<String, MaintenanceWindow> windows = new ConcurrentHashMap<>();
  private final Map<String, Instant> snoozes = new ConcurrentHashMap<>();

  @Activate
  public Workflow(@Reference RecordStore store) {
    this(store, Clock.systemUTC());
  }

  Workflow(RecordStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
    store.read(
        r -> {
          r.map(Formats.MAINTENANCE).entries().forEach(e -> windows.put(e.getKey(), e.getValue()));
          for (var e : r.map(Formats.NOTES).entries()) {
            if (e.getValue().snoozedUntil() != null) {
              snoozes.put(e.getKey(), e.getValue().snoozedUntil());
            }
          }
          return null;
        });
  }

  Clock clock() {
    return clock;
  }

  /** Returns the note of a finding (empty if nobody worked on it). */
  Note note(String findingId) {
    Note n = store.read(r -> r.map(Formats.NOTES).get(findingId));
    return n == null ? Note.empty(findingId) : n;
  }

  /** Returns every note, by finding id. */
  Map<String, Note> notes() {
    Map<String, Note> all = new java.util.HashMap<>();
    store.read(
        r -> {
          r.map(Formats.NOTES).entries().forEach(e -> all.put(e.getKey(), e.getValue()));
          return null;
        });
    return all;
  }

  /** Changes a finding's note in one write and returns it as stored. */
  Note change(String findingId, String what, UnaryOperator<Note> change) {
    Note after =
        store.write(
            what,
            WritePriority.ROUTINE,
            w -> {
              var notes = w.map(Formats.NOTES);
              Note before = notes.get(findingId);
              Note changed = change.apply(before == null ? Note.empty(findingId) : before);
              notes.put(findingId, changed);
              return changed;
            });
    if (after.snoozedUntil() == null) {
      snoozes.remove(findingId);
    } else {
      snoozes.put(findingId, after.snoozedUntil());
    }
    return after;
  }

  @Override
  public boolean covers(io.bulwark.api.health.Finding f, Instant at) {
    Instant snoozed = snoozes.get(f.id());
    if (snoozed != null && at.isBefore(snoozed)) {
      return true;
    }
    for (MaintenanceWindow w : windows.values()) {
      if (w.covers(f, at)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<MaintenanceWindow> windows(Instant at) {
    List<MaintenanceWindow> open = new ArrayList<>();
    for (MaintenanceWindow w : windows.values()) {
      if (at.isBefore(w.until())) {
        open.add(w);
      }
    }
    open.sort(Comparator.comparing(MaintenanceWindow::until).thenComparing(MaintenanceWindow::id));
    return open;
  }

  /**
   * Starts a window now.
   *
   * @throws IllegalArgumentException if {@code until} is not in the next 90 days
   */
  MaintenanceWindow start(NodeId node, int gpu, Instant until, String reason, String by) {
    Instant now = clock.instant();
    if (!until.isAfter(now) || until.isAfter(now.plus(LONGEST_MAINTENANCE))) {
      throw new IllegalArgumentException(
          "'until' must be in the next " + LONGEST_MAINTENANCE.toDays() + " days, not " + until);
    }
    MaintenanceWindow w =
        new MaintenanceWindow(UUID.randomUUID().toString(), node, gpu, now, until, reason, by);
    List<String> expired =
        windows.values().stream()
            .filter(old -> old.until().isBefore(now.minus(KEEP_ENDED)))
            .map(MaintenanceWindow::id)
            .toList();
    store.write(
        "start maintenance of " + node + (gpu >= 0 ? " GPU " + gpu : ""),
        WritePriority.ROUTINE,
        wr -> {
          var map = wr.map(Formats.MAINTENANCE);
          map.put(w.id(), w);
          expired.forEach(map::remove);
          return null;
        });
    expired.forEach(windows::remove);
    windows.put(w.id(), w);
    return w;
  }

  /** Ends a window now; returns it as ended, or empty if there is none with this id. */
  Optional<MaintenanceWindow> end(String id) {
    MaintenanceWindow w = windows.get(id);
    if (w == null) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    MaintenanceWindow ended =
        new MaintenanceWindow(
            w.id(),
            w.node(),
            w.gpu(),
            w.from(),
            now.isBefore(w.until()) ? now : w.until(),
            w.reason(),
            w.by());
    store.write(
        "end maintenance " + id,
        WritePriority.ROUTINE,
        wr -> {
          wr.map(Formats.MAINTENANCE).put(id, ended);
          return null;
        });
    windows.put(id, ended);
    return Optional.of(ended);
  }

  /** Returns every window kept (ended ones of the last 30 days too). */
  List<MaintenanceWindow> allWindows() {
    List<MaintenanceWindow> all = new ArrayList<>(windows.values());
    all.sort(Comparator.comparing(MaintenanceWindow::from).reversed());
    return all;
  }
}
