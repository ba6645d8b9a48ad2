package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.ServiceReference;

/**
 * Records every read, write and removal of a secret in the audit log: the secret's name (never its
 * value), the operation, and the bundle and class that asked. Accesses made before the audit log is
 * available (at start, the audit log's own key among them) are held, up to a limit, and recorded as
 * soon as it is. The audit log's own reads while it appends a record are not recorded again: that
 * would recurse.
 *
 * <p>Fails secure: when the audit log is there but cannot record, {@link #record} throws and the
 * secret store refuses the access.
 */
final class SecretAccessTrail {
  static final int MAX_HELD = 256;
  private static final Logger LOG = System.getLogger(SecretAccessTrail.class.getName());
  private static final ThreadLocal<Boolean> APPENDING = ThreadLocal.withInitial(() -> false);
  private static final StackWalker STACK =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private final BundleContext context;
  private final ExecutorService attacher;
  private final Deque<AuditEvent> held = new ArrayDeque<>();
  private int dropped;
  private volatile AuditLog log;
  private ServiceReference<AuditLog> attached;
  private ServiceReference<AuditLog> wanted;

  /**
   * @param context the secret store's bundle context, to fetch the audit log with; null without
   *     OSGi (tests), where only {@link #attach} is used
   */
  SecretAccessTrail(BundleContext context) {
    this.context = context;
    this.attacher =
        context == null
            ? null
            : Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "bulwark-secret-audit");
                  t.setDaemon(true);
                  return t;
                });
  }

  /**
   * Fetches the audit log behind {@code reference} on the trail's own thread and starts recording
   * into it. Fetching it on the caller's thread could be a cycle: the audit log's activation reads
   * its key from the secret store.
   */
  void attachLater(ServiceReference<AuditLog> reference) {
    synchronized (held) {
      wanted = reference;
    }
    attacher.execute(
        () -> {
          synchronized (held) {
            if (!reference.equals(wanted)) {
              return;
            }
          }
          AuditLog audit = context.getService(reference);
          if (audit == null) {
            LOG.log(
                Level.WARNING,
                "The audit log went away before secret accesses could be recorded in it; they are"
                    + " held until it comes back");
            return;
          }
          attach(audit, reference);
        });
  }

  /**
   * Stops recording into the audit log behind {@code reference}; later accesses are held. Runs in
   * order with the attaching, on the trail's thread, so that an unbind that overtakes a pending
   * attach is not lost.
   */
  void detach(ServiceReference<AuditLog> reference) {
    synchronized (held) {
      if (reference.equals(wanted)) {
        wanted = null;
      }
    }
    attacher.execute(
        () -> {
          boolean release;
          synchronized (held) {
            release = attached != null && attached.equals(reference);
            if (release) {
              log = null;
              attached = null;
            }
          }
          if (release) {
            context.ungetService(reference);
          }
        });
  }

  /** Stops the trail's thread. */
  void close() {
    if (attacher != null) {
      attacher.shutdownNow();
    }
  }

  /**
   * Starts recording into {@code audit}: first the accesses held until now, in order, then every
   * new one. An audit log that is no longer wanted (unbound meanwhile) is released instead.
   */
  void attach(AuditLog audit, ServiceReference<AuditLog> reference) {
    ServiceReference<AuditLog> previous = null;
    int lost;
    while (true) {
      List<AuditEvent> waiting;
      synchronized (held) {
        if (reference != null && !reference.equals(wanted)) {
          previous = reference;
          lost = 0;
          break;
        }
        if (held.isEmpty()) {
          // Published only once nothing is held: accesses made meanwhile queued behind the
          // earlier ones and were drained in order.
          if (attached != null && !attached.equals(reference)) {
            previous = attached;
          }
          log = audit;
          attached = reference;
          lost = dropped;
          dropped = 0;
          break;
        }
        waiting = List.copyOf(held);
        held.clear();
      }
      // Appended without holding the lock: an append may read a key from the secret store,
      // whose access is recorded here.
      for (AuditEvent e : waiting) {
        append(audit, e, false);
      }
    }
    if (previous != null) {
      context.ungetService(previous);
    }
    if (lost > 0) {
      LOG.log(
          Level.WARNING,
          "{0} secret accesses made before the audit log opened were not recorded (only the first"
              + " {1} are held)",
          lost,
          MAX_HELD);
    }
  }

  /**
   * Records one access to the secret {@code name}.
   *
   * @param operation {@code read}, {@code write} or {@code remove}
   * @param found for a read, whether the secret existed
   * @param outcome whether the access succeeded
   * @throws IllegalStateException if the audit log is there and cannot record the access
   */
  void record(String operation, String name, boolean found, AuditOutcome outcome) {
    if (APPENDING.get()) {
      return;
    }
    Map<String, String> details = new TreeMap<>();
    details.put("caller", caller());
    details.put("at", java.time.Instant.now().toString());
    if (operation.equals("read")) {
      details.put("found", Boolean.toString(found));
    }
    AuditEvent event =
        new AuditEvent("system", "local", "secret." + operation, name, outcome, details);
    AuditLog audit;
    synchronized (held) {
      audit = log;
      if (audit == null) {
        if (held.size() < MAX_HELD) {
          held.add(event);
        } else {
          dropped++;
        }
        return;
      }
    }
    append(audit, event, outcome == AuditOutcome.SUCCESS);
  }

  private static void append(AuditLog audit, AuditEvent event, boolean refuse) {
    APPENDING.set(true);
    try {
      audit.append(event);
    } catch (AuditUnavailableException e) {
      if (refuse) {
        throw new IllegalStateException(
            "the "
                + event.action()
                + " of the secret '"
                + event.target()
                + "' is refused because the audit log cannot record it: "
                + e.getMessage(),
            e);
      }
      LOG.log(
          Level.ERROR,
          "The audit log could not record the earlier {0} of the secret ''{1}'': {2}",
          event.action(),
          event.target(),
          e.getMessage());
    } finally {
      APPENDING.set(false);
    }
  }

  /** Names the code that called the secret store: its bundle and class. */
  private static String caller() {
    Class<?> found =
        STACK.walk(
            frames ->
                frames
                    .map(StackWalker.StackFrame::getDeclaringClass)
                    .filter(c -> c != SecretAccessTrail.class && c != EncryptedSecretStore.class)
                    .findFirst()
                    .orElse(null));
    if (found == null) {
      return "unknown";
    }
    Bundle bundle = FrameworkUtil.getBundle(found);
    String owner = bundle == null ? "" : bundle.getSymbolicName() + "/";
    return owner + found.getSimpleName();
  }
}
