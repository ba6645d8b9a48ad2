package io.bulwark.provisioning.internal;

import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The lines the boot environments log, kept by machine, or by MAC for a machine not enlisted yet:
 * cleaned of control characters, cut to {@link BootLog#LINE_CHARACTERS} and {@link BootLog#LINES}.
 * Logs by MAC are bounded too, since anyone on the provisioning network can boot a made-up MAC: at
 * most {@value #MAX_BY_MAC} are kept, the least recently written are dropped (an enlistment moves
 * its log to the new machine). Used by {@link Provisioning}; thread-safe.
 */
final class BootLogs {
  static final int MAX_BY_MAC = 256;
  private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}:){5}[0-9a-f]{2}");

  private final RecordStore store;
  private LinkedHashSet<String> byMac;

  BootLogs(RecordStore store) {
    this.store = store;
  }

  /** Appends {@code lines} of the boot {@code boot} to the log kept under {@code key}. */
  void append(String key, String boot, List<String> lines, Instant now) {
    List<String> clean =
        lines.stream()
            .limit(BootLog.LINES)
            .map(l -> l.replaceAll("[\\p{Cntrl}]", " ").strip())
            .map(
                l ->
                    l.length() > BootLog.LINE_CHARACTERS
                        ? l.substring(0, BootLog.LINE_CHARACTERS)
                        : l)
            .filter(l -> !l.isEmpty())
            .toList();
    List<String> dropped = MAC.matcher(key).matches() ? written(key) : List.of();
    store.write(
        "keep the boot log of " + key,
        WritePriority.ROUTINE,
        w -> {
          for (String d : dropped) {
            w.map(BootLog.MAP).remove(d);
          }
          BootLog before = w.map(BootLog.MAP).get(key);
          BootLog after =
              (before == null ? new BootLog(key, boot, List.of(), now) : before)
                  .with(boot, clean, now);
          w.map(BootLog.MAP).put(key, after);
          return null;
        });
  }

  /**
   * Notes that the log of {@code mac} is written now; returns the logs by MAC to drop for it. The
   * first time, reads which logs by MAC the store holds (from before a restart), oldest first.
   */
  private synchronized List<String> written(String mac) {
    if (byMac == null) {
      byMac = new LinkedHashSet<>();
      store
          .read(
              r ->
                  r.map(BootLog.MAP).entries().stream()
                      .map(Map.Entry::getValue)
                      .filter(l -> MAC.matcher(l.key()).matches())
                      .sorted(Comparator.comparing(BootLog::at))
                      .map(BootLog::key)
                      .toList())
          .forEach(byMac::add);
    }
    byMac.remove(mac);
    byMac.add(mac);
    List<String> dropped = new ArrayList<>();
    for (Iterator<String> it = byMac.iterator(); byMac.size() > MAX_BY_MAC && it.hasNext(); ) {
      dropped.add(it.next());
      it.remove();
    }
    return dropped;
  }

  /** Returns the log kept under {@code key}, if any. */
  Optional<BootLog> get(String key) {
    return Optional.ofNullable(store.read(r -> r.map(BootLog.MAP).get(key)));
  }
}
