package io.bulwark.notify.api;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.Severity;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One change of a finding, as a channel delivers it: what happened ({@link Event}), the finding as
 * it was then, the labels of its node's scrape target (rack, partition…), and when Bulwark noticed.
 *
 * @param id unique per notification and channel, stable across retries (receivers may deduplicate
 *     on it)
 * @param event what happened to the finding
 * @param finding the finding after the change
 * @param nodeLabels the file_sd labels of the finding's node (copied)
 * @param at when the change happened
 * @param notice for {@link Event#NOTICE}, what the people told are asked to know or do; empty for
 *     every other event
 */
public record Notification(
    String id,
    Event event,
    Finding finding,
    Map<String, String> nodeLabels,
    Instant at,
    String notice) {

  /** What happened to a finding. */
  public enum Event {
    /** The finding opened. */
    OPENED,
    /** Its severity changed while open. */
    CHANGED,
    /** It resolved. */
    RESOLVED,
    /** Still open: sent again to keep it alive at a receiver that expires alerts. */
    REPEATED,
    /** An administrator's "send test"; the finding is made up and says so. */
    TEST,
    /**
     * A remediation run tells the people its policy names about the finding (facilities for a
     * throttling node, say); {@link #notice()} says what. Sent once, never repeated or resolved.
     */
    NOTICE
  }

  public Notification {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(finding, "finding");
    nodeLabels = Map.copyOf(nodeLabels);
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(notice, "notice");
    if (event == Event.NOTICE && notice.isBlank()) {
      throw new IllegalArgumentException("a notice needs its text");
    }
  }

  /** A notification of a finding's change (every event but {@link Event#NOTICE}). */
  public Notification(
      String id, Event event, Finding finding, Map<String, String> nodeLabels, Instant at) {
    this(id, event, finding, nodeLabels, at, "");
  }

  /** Returns true if the finding still holds (every event but {@link Event#RESOLVED}). */
  public boolean firing() {
    return event != Event.RESOLVED;
  }

  /**
   * Returns a one-line subject: "CRITICAL xid on dgx-a07 GPU 3: …", "RESOLVED …", or for a notice
   * "NOTICE thermal-throttle on dgx-a07 GPU 3: " and the notice's text.
   */
  public String subject() {
    Finding f = finding;
    String where = f.gpu() < 0 ? f.node().value() : f.node().value() + " GPU " + f.gpu();
    String state =
        switch (event) {
          case RESOLVED -> "RESOLVED";
          case TEST -> "TEST";
          case NOTICE -> "NOTICE";
          default -> f.severity().name();
        };
    return state
        + " "
        + f.kind()
        + " on "
        + where
        + ": "
        + (event == Event.NOTICE ? notice : f.summary());
  }

  /** Returns the finding's severity, or INFO for a test. */
  public Severity severity() {
    return event == Event.TEST ? Severity.INFO : finding.severity();
  }
}
