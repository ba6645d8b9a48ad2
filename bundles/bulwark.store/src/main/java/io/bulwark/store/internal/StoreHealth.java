package io.bulwark.store.internal;

import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The store's self-report as the {@code store} subsystem: DOWN while it refuses writes (a failed
 * commit, a committed change not yet written over the data file, or a disk below the reserve),
 * DEGRADED while its disk is filling towards the reserve, UP otherwise; with the disk's headroom
 * and the store's counters as gauges. Answers from state the store keeps (the disk's free space is
 * read at most once a second).
 */
final class StoreHealth {
  static final String SUBSYSTEM = "store";

  private final MapDbFile<?> db;
  private final Clock clock;
  private SubsystemState last = SubsystemState.UP;
  private Instant since;

  StoreHealth(MapDbFile<?> db, Clock clock) {
    this.db = db;
    this.clock = clock;
    this.since = clock.instant();
  }

  synchronized SubsystemStatus status() {
    DiskReserve reserve = db.reserve();
    long free = reserve.freeBytes(false);
    long total = reserve.totalBytes();
    String folder = db.file().path().getParent().toString();
    String act =
        "Free space on the disk of "
            + folder
            + " (old exports, roll-up files, other programs' files) and check the process's file"
            + " limit; the store retries by itself, no restart is needed";
    SubsystemState state;
    String summary;
    String action = "";
    Instant failingSince = db.failingSince();
    if (db.failure() != null) {
      state = SubsystemState.DOWN;
      summary = "refuses writes: " + db.failure();
      action = act;
    } else if (db.file().applyPending()) {
      state = SubsystemState.DOWN;
      summary =
          "a committed change waits to be written over "
              + db.file().path()
              + "; new changes are refused until it is";
      action = act;
    } else if (reserve.belowReserve()) {
      state = SubsystemState.DOWN;
      summary =
          "refuses routine writes: the disk of "
              + folder
              + " has "
              + DiskReserve.size(free)
              + " free, below the store's reserve of "
              + DiskReserve.size(reserve.reserveBytes());
      action = act;
    } else if (free >= 0 && free < warningBytes(reserve.reserveBytes(), total)) {
      state = SubsystemState.DEGRADED;
      summary =
          "the disk of "
              + folder
              + " is filling: "
              + DiskReserve.size(free)
              + " free; routine writes are refused below "
              + DiskReserve.size(reserve.reserveBytes());
      action = act;
    } else {
      state = SubsystemState.UP;
      summary =
          "writable; data file "
              + DiskReserve.size(db.file().length())
              + (free >= 0 ? ", " + DiskReserve.size(free) + " free on its disk" : "");
    }
    if (state != last) {
      last = state;
      since = failingSince != null && state == SubsystemState.DOWN ? failingSince : clock.instant();
    }
    Map<String, Double> gauges = new LinkedHashMap<>();
    gauges.put("bulwark_store_disk_free_bytes", (double) free);
    gauges.put("bulwark_store_disk_total_bytes", (double) total);
    gauges.put("bulwark_store_disk_reserve_bytes", (double) reserve.reserveBytes());
    gauges.put("bulwark_store_file_bytes", (double) db.file().length());
    gauges.put("bulwark_store_commits_total", (double) db.file().commits());
    gauges.put("bulwark_store_failed_writes_total", (double) db.failedWrites());
    gauges.put("bulwark_store_reopens_total", (double) db.reopens());
    return new SubsystemStatus(SUBSYSTEM, state, summary, action, since, gauges);
  }

  /** Below this much free space the disk is reported as filling: twice the reserve, or 5%. */
  static long warningBytes(long reserve, long total) {
    return Math.max(2 * reserve, total > 0 ? total / 20 : 0);
  }
}
