package io.bulwark.provisioning.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Counts refused enlistments (and those whose boot environment stopped) so that a flood of them
 * costs the audit log and the log one line per client address and minute: the first refusal of an
 * address logs a warning at once and opens its minute; every refusal of that minute is counted, and
 * when the minute ends one {@value #ACTION} record says how many there were, the first and last MAC
 * and reason, and the time span. At most {@value #MAX_ADDRESSES} addresses are followed a minute;
 * the refusals of any more are counted in one record for "other addresses". What the client chose
 * (a reason quoting it) is cut to {@value #MAX_TEXT} characters. Used by {@link Enlistment}; {@link
 * #flush} runs on the provisioning sweeper. Thread-safe.
 */
final class EnlistmentRefusals {
  static final Duration INTERVAL = Duration.ofMinutes(1);
  static final int MAX_ADDRESSES = 4_096;
  static final int MAX_TEXT = 200;
  static final String ACTION = "provisioning.enlist-refused";

  private static final Logger LOG = Logger.getLogger(EnlistmentRefusals.class.getName());

  private final AuditLog audit;
  private final Clock clock;
  private final Map<String, Window> windows = new HashMap<>();
  private Window others;
  private long unaudited;
  private Instant lastUnauditedLog;

  EnlistmentRefusals(AuditLog audit, Clock clock) {
    this.audit = audit;
    this.clock = clock;
  }

  /** Counts a refused enlistment of {@code mac} from {@code address}, for {@code reason}. */
  void refused(String address, String mac, String reason) {
    Instant now = clock.instant();
    String why = bounded(reason);
    String what = bounded(mac);
    synchronized (this) {
      Window w = windows.get(address);
      if (w != null) {
        w.add(now, what, why);
        return;
      }
      if (windows.size() >= MAX_ADDRESSES) {
        if (others == null) {
          others = new Window(now, what, why);
        } else {
          others.add(now, what, why);
        }
        return;
      }
      windows.put(address, new Window(now, what, why));
    }
    LOG.warning(
        () ->
            "Enlistment of "
                + what
                + " from "
                + address
                + " refused: "
                + why
                + ". Further refusals from this address are counted and audited together once a"
                + " minute");
  }

  /**
   * Returns {@code text} cut to {@value #MAX_TEXT} characters, saying how long it was, with its
   * control characters replaced.
   */
  static String bounded(String text) {
    if (text == null) {
      return "";
    }
    String s = text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
    if (Character.isHighSurrogate(s.charAt(s.length() - 1))) {
      s = s.substring(0, s.length() - 1);
    }
    s = s.replaceAll("[\\p{Cc}\\p{Cf}]", "?");
    return text.length() <= MAX_TEXT ? s : s + "… (" + text.length() + " characters)";
  }

  /**
   * Records the count of every address whose minute has ended ({@code all}: every one, as the
   * service stops).
   */
  void flush(boolean all) {
    Instant now = clock.instant();
    List<AuditEvent> due = new ArrayList<>();
    synchronized (this) {
      for (Iterator<Map.Entry<String, Window>> it = windows.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, Window> e = it.next();
        if (all || !e.getValue().start.plus(INTERVAL).isAfter(now)) {
          it.remove();
          due.add(e.getValue().event(e.getKey()));
        }
      }
      if (others != null && (all || !others.start.plus(INTERVAL).isAfter(now))) {
        due.add(others.event("other addresses (more than " + MAX_ADDRESSES + ")"));
        others = null;
      }
    }
    due.forEach(this::record);
  }

  /** Returns the addresses followed in the current minutes (for tests). */
  synchronized int followed() {
    return windows.size();
  }

  private void record(AuditEvent event) {
    try {
      audit.append(event);
    } catch (AuditUnavailableException e) {
      Instant now = clock.instant();
      long count;
      synchronized (this) {
        unaudited++;
        if (lastUnauditedLog != null && now.isBefore(lastUnauditedLog.plus(INTERVAL))) {
          return;
        }
        lastUnauditedLog = now;
        count = unaudited;
        unaudited = 0;
      }
      LOG.severe(
          count
              + " record(s) of refused enlistments could not be audited in the last minute: "
              + e.getMessage());
    }
  }

  /** The refusals of one address in its minute. */
  private static final class Window {
    final Instant start;
    final String firstMac;
    final String firstReason;
    Instant last;
    String lastMac;
    String lastReason;
    long count = 1;

    Window(Instant start, String mac, String reason) {
      this.start = start;
      this.firstMac = mac;
      this.firstReason = reason;
      this.last = start;
      this.lastMac = mac;
      this.lastReason = reason;
    }

    void add(Instant at, String mac, String reason) {
      count++;
      last = at;
      lastMac = mac;
      lastReason = reason;
    }

    AuditEvent event(String address) {
      Map<String, String> details = new LinkedHashMap<>();
      details.put("count", Long.toString(count));
      details.put("firstMac", firstMac);
      details.put("firstReason", firstReason);
      if (count > 1) {
        details.put("lastMac", lastMac);
        details.put("lastReason", lastReason);
      }
      details.put("from", start.toString());
      details.put("to", last.toString());
      return new AuditEvent(
          "boot-environment",
          address,
          ACTION,
          count + " enlistment report(s) that enlisted nothing",
          AuditOutcome.DENIED,
          details);
    }
  }
}
