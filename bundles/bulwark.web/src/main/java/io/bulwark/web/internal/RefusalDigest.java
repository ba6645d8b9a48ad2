package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Audits refused requests without letting a client flood the audit log: the first refusal of a
 * client (actor and address) in an interval is recorded at once, as {@code api.refused}, and the
 * ones after it are counted and recorded together when the interval ends, as one {@code
 * api.refused} record with the count, the first and last request and the time span. At most {@link
 * #MAX_CLIENTS} clients are followed per interval; refusals of any more are counted in one record
 * for "other clients". What a client chose (the path it asked for, the reason that quotes it) is
 * cut to {@value #MAX_TEXT} characters. Thread-safe: refusals arrive on the workers (or are counted
 * on the event loop and their first record written on a worker), {@link #flush} on a timer.
 */
final class RefusalDigest {
  static final Duration INTERVAL = Duration.ofMinutes(1);
  static final int MAX_CLIENTS = 4096;
  static final String ACTION = "api.refused";
  static final int MAX_TEXT = 200;

  private static final System.Logger LOG = System.getLogger(RefusalDigest.class.getName());

  private final Supplier<AuditLog> audit;
  private final Clock clock;
  private final Map<Client, Window> windows = new HashMap<>();
  private long others;
  private Instant othersSince;
  private volatile long lastUnauditedLog = -1;
  private long unaudited;

  /** {@code audit} gives the audit log, or throws {@link AuditUnavailableException} if missing. */
  RefusalDigest(Supplier<AuditLog> audit, Clock clock) {
    this.audit = audit;
    this.clock = clock;
  }

  /** A refused {@code request} ("POST /api/v1/tokens") by {@code actor} from {@code source}. */
  void refused(String actor, String source, String request, String reason) {
    AuditEvent first = count(actor, source, request, reason);
    if (first != null) {
      record(first);
    }
  }

  /**
   * Counts a refusal without writing anything: returns the record to write for it (the client's
   * first refusal in its interval), which the caller passes to {@link #record} off the event loop,
   * or null when it is counted for the record at the interval's end. Never blocks.
   */
  AuditEvent count(String actor, String source, String request, String reason) {
    Client client = new Client(bounded(actor), bounded(source));
    String what = bounded(request);
    Instant now = clock.instant();
    synchronized (this) {
      Window w = windows.get(client);
      if (w != null) {
        w.more++;
        w.lastRequest = what;
        w.lastAt = now;
        return null;
      }
      if (windows.size() >= MAX_CLIENTS) {
        if (others++ == 0) {
          othersSince = now;
        }
        return null;
      }
      windows.put(client, new Window(now, what));
    }
    return new AuditEvent(
        client.actor(),
        client.source(),
        ACTION,
        what,
        AuditOutcome.DENIED,
        Map.of("reason", bounded(reason)));
  }

  /**
   * Returns {@code text} cut to {@value #MAX_TEXT} characters, saying how long it was: what a
   * client sent (a path, a name it gave) costs the audit log no more than that, however long it is.
   */
  static String bounded(String text) {
    if (text == null || text.length() <= MAX_TEXT) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(MAX_TEXT - 1)) ? MAX_TEXT - 1 : MAX_TEXT;
    return text.substring(0, end) + "… (" + text.length() + " characters)";
  }

  /** Records the counts of the intervals that have ended; called every few seconds. */
  void flush() {
    flush(false);
  }

  /** Records the counts of every interval, ended or not (the admin plane is stopping). */
  void flushAll() {
    flush(true);
  }

  private void flush(boolean all) {
    Instant now = clock.instant();
    List<AuditEvent> due = new ArrayList<>();
    synchronized (this) {
      Iterator<Map.Entry<Client, Window>> it = windows.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<Client, Window> e = it.next();
        Window w = e.getValue();
        if (!all && w.start.plus(INTERVAL).isAfter(now)) {
          continue;
        }
        it.remove();
        if (w.more > 0) {
          Map<String, String> details = new LinkedHashMap<>();
          details.put("count", Long.toString(w.more));
          details.put("firstRequest", w.firstRequest);
          details.put("lastRequest", w.lastRequest);
          details.put("from", w.start.toString());
          details.put("to", w.lastAt.toString());
          due.add(
              new AuditEvent(
                  e.getKey().actor(),
                  e.getKey().source(),
                  ACTION,
                  w.more + " more refused request(s)",
                  AuditOutcome.DENIED,
                  details));
        }
      }
      if (others > 0 && windows.isEmpty()) {
        due.add(
            new AuditEvent(
                "anonymous",
                "other clients",
                ACTION,
                others + " refused request(s) from more than " + MAX_CLIENTS + " clients",
                AuditOutcome.DENIED,
                Map.of(
                    "count",
                    Long.toString(others),
                    "from",
                    othersSince.toString(),
                    "to",
                    now.toString())));
        others = 0;
      }
    }
    due.forEach(this::record);
  }

  /** Returns the clients followed in the current intervals (for tests). */
  synchronized int followed() {
    return windows.size();
  }

  /** Appends {@code event}; logs (once a minute) if the audit log cannot take it. May block. */
  void record(AuditEvent event) {
    try {
      audit.get().append(event);
    } catch (AuditUnavailableException e) {
      long now = clock.millis();
      synchronized (this) {
        unaudited++;
      }
      if (lastUnauditedLog < 0 || now - lastUnauditedLog >= INTERVAL.toMillis()) {
        lastUnauditedLog = now;
        long count;
        synchronized (this) {
          count = unaudited;
          unaudited = 0;
        }
        LOG.log(
            Level.ERROR,
            count
                + " record(s) of refused requests could not be audited in the last minute: "
                + e.getMessage());
      }
    }
  }

  private record Client(String actor, String source) {}

  private static final class Window {
    final Instant start;
    final String firstRequest;
    String lastRequest;
    Instant lastAt;
    long more;

    Window(Instant start, String request) {
      this.start = start;
      this.firstRequest = request;
      this.lastRequest = request;
      this.lastAt = start;
    }
  }
}
