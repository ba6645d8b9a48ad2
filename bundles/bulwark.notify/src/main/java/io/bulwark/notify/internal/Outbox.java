package io.bulwark.notify.internal;

import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreReader;
import io.bulwark.api.store.WritePriority;
import io.bulwark.notify.api.Notification;
import io.bulwark.notify.api.Notification.Event;
import io.bulwark.notify.internal.Formats.Told;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The persisted outbox and what each channel was told, with an index in memory. Every change is one
 * store write (what the channels were told and the notifications that say so, together), so a crash
 * neither loses a notification nor sends one twice as new. At most {@code maxPerChannel} wait per
 * channel: when a receiver has been away that long, the oldest go (counted). A notification that
 * waits for a finding already waiting on the same channel replaces it (one message with the latest
 * state). Thread-safe: one lock; the store write runs under it.
 */
final class Outbox {
  private final RecordStore store;
  private final int maxPerChannel;
  private final Map<String, TreeMap<Long, OutboxEntry>> byChannel = new HashMap<>();
  private final Map<String, Long> waitingByKey = new HashMap<>();
  private final Map<String, Told> told = new HashMap<>();
  private final Set<Long> inFlight = new HashSet<>();
  private final Map<String, Long> dropped = new HashMap<>();
  private long nextSeq;

  Outbox(RecordStore store, int maxPerChannel) {
    this.store = store;
    this.maxPerChannel = maxPerChannel;
    store.read(
        r -> {
          for (Map.Entry<Long, OutboxEntry> e : r.map(Formats.OUTBOX).entries()) {
            index(e.getValue());
            nextSeq = Math.max(nextSeq, e.getKey() + 1);
          }
          for (Map.Entry<String, Told> e : r.map(Formats.TOLD).entries()) {
            told.put(e.getKey(), e.getValue());
          }
          return null;
        });
  }

  /** What a change does: notifications to add and what the channels will have been told. */
  static final class Change {
    final List<OutboxEntry> add = new ArrayList<>();
    final List<Told> tell = new ArrayList<>();
    final List<String> forget = new ArrayList<>();

    boolean isEmpty() {
      return add.isEmpty() && tell.isEmpty() && forget.isEmpty();
    }
  }

  /** Returns what {@code channel} was last told of {@code findingId}, or null. */
  synchronized Told told(String channel, String findingId) {
    return told.get(Told.key(channel, findingId));
  }

  /** Returns everything the channels were told of findings still open to them. */
  synchronized List<Told> allTold() {
    return List.copyOf(told.values());
  }

  /** Returns true if a notification for this finding waits on this channel. */
  synchronized boolean waiting(String channel, String findingId) {
    return waitingByKey.containsKey(channel + "\u0000" + findingId);
  }

  /** Returns a notification for {@code channel} with the next sequence number. */
  synchronized OutboxEntry entry(String channel, Notification n) {
    return new OutboxEntry(nextSeq++, channel, n);
  }

  /**
   * Applies {@code change} in one store write: adds its notifications (replacing one that waits for
   * the same finding and channel and is not being sent), records what was told, trims channels over
   * their bound.
   *
   * @throws io.bulwark.api.store.StoreUnavailableException if it could not be stored; nothing
   *     changed
   */
  synchronized void apply(Change change) {
    if (change.isEmpty()) {
      return;
    }
    List<OutboxEntry> replaced = new ArrayList<>();
    Map<String, OutboxEntry> addedByKey = new java.util.LinkedHashMap<>();
    for (OutboxEntry e : change.add) {
      OutboxEntry merged = e;
      OutboxEntry sameChange = addedByKey.remove(e.dedupKey());
      if (sameChange != null) {
        merged =
            new OutboxEntry(
                e.seq(), e.channel(), merge(sameChange.notification(), e.notification()));
      } else {
        Long old = waitingByKey.get(e.dedupKey());
        if (old != null && !inFlight.contains(old)) {
          OutboxEntry before = byChannel.get(e.channel()).get(old);
          replaced.add(before);
          merged =
              new OutboxEntry(e.seq(), e.channel(), merge(before.notification(), e.notification()));
        }
      }
      addedByKey.put(e.dedupKey(), merged);
    }
    List<OutboxEntry> added = new ArrayList<>(addedByKey.values());
    List<OutboxEntry> trimmed = overBound(added, replaced);
    List<OutboxEntry> trimmedNew = new ArrayList<>(trimmed);
    trimmedNew.retainAll(added);
    added.removeAll(trimmedNew);
    trimmed.removeAll(trimmedNew);
    store.write(
        "queue " + added.size() + " notification(s)",
        WritePriority.ROUTINE,
        (StoreReader w) -> {
          RecordMap<Long, OutboxEntry> outbox = w.map(Formats.OUTBOX);
          for (OutboxEntry e : replaced) {
            outbox.remove(e.seq());
          }
          for (OutboxEntry e : trimmed) {
            outbox.remove(e.seq());
          }
          for (OutboxEntry e : added) {
            outbox.put(e.seq(), e);
          }
          RecordMap<String, Told> toldMap = w.map(Formats.TOLD);
          for (Told t : change.tell) {
            toldMap.put(t.key(), t);
          }
          for (String key : change.forget) {
            toldMap.remove(key);
          }
          return null;
        });
    replaced.forEach(this::unindex);
    trimmed.forEach(this::unindex);
    for (OutboxEntry e : trimmed) {
      dropped.merge(e.channel(), 1L, Long::sum);
    }
    for (OutboxEntry e : trimmedNew) {
      dropped.merge(e.channel(), 1L, Long::sum);
    }
    added.forEach(this::index);
    change.tell.forEach(t -> told.put(t.key(), t));
    change.forget.forEach(told::remove);
  }

  /**
   * Returns up to {@code max} of the oldest notifications waiting for {@code channel}, marked as
   * being sent until {@link #delivered} or {@link #release}.
   */
  synchronized List<OutboxEntry> take(String channel, int max) {
    TreeMap<Long, OutboxEntry> waiting = byChannel.get(channel);
    if (waiting == null || waiting.isEmpty()) {
      return List.of();
    }
    List<OutboxEntry> batch = new ArrayList<>();
    for (OutboxEntry e : waiting.values()) {
      if (batch.size() == max) {
        break;
      }
      batch.add(e);
      inFlight.add(e.seq());
    }
    return batch;
  }

  /** Removes delivered (or given-up) notifications. */
  synchronized void delivered(Collection<OutboxEntry> batch) {
    store.write(
        "remove " + batch.size() + " delivered notification(s)",
        WritePriority.ROUTINE,
        w -> {
          RecordMap<Long, OutboxEntry> outbox = w.map(Formats.OUTBOX);
          batch.forEach(e -> outbox.remove(e.seq()));
          return null;
        });
    batch.forEach(this::unindex);
  }

  /**
   * Puts a batch that could not be sent back to wait. A notification that a newer one about the
   * same finding arrived behind while it was being sent is folded into the newer one (one message
   * with the latest state, as if it had waited).
   */
  synchronized void release(Collection<OutboxEntry> batch) {
    batch.forEach(e -> inFlight.remove(e.seq()));
    List<OutboxEntry> superseded = new ArrayList<>();
    List<OutboxEntry> merged = new ArrayList<>();
    for (OutboxEntry e : batch) {
      Long newer = waitingByKey.get(e.dedupKey());
      TreeMap<Long, OutboxEntry> waiting = byChannel.get(e.channel());
      if (newer != null && newer != e.seq() && waiting != null && waiting.containsKey(e.seq())) {
        OutboxEntry after = waiting.get(newer);
        if (after != null && !inFlight.contains(newer)) {
          superseded.add(e);
          merged.add(
              new OutboxEntry(
                  after.seq(), after.channel(), merge(e.notification(), after.notification())));
        }
      }
    }
    if (superseded.isEmpty()) {
      return;
    }
    try {
      store.write(
          "fold " + superseded.size() + " notification(s) into newer ones",
          WritePriority.ROUTINE,
          w -> {
            RecordMap<Long, OutboxEntry> outbox = w.map(Formats.OUTBOX);
            superseded.forEach(e -> outbox.remove(e.seq()));
            merged.forEach(e -> outbox.put(e.seq(), e));
            return null;
          });
    } catch (RuntimeException e) {
      return; // both stay and are sent in turn
    }
    for (OutboxEntry e : superseded) {
      TreeMap<Long, OutboxEntry> waiting = byChannel.get(e.channel());
      waiting.remove(e.seq());
    }
    merged.forEach(e -> byChannel.get(e.channel()).put(e.seq(), e));
  }

  /** Counts notifications given up on (a receiver that rejects them for good). */
  synchronized void countDropped(String channel, int n) {
    dropped.merge(channel, (long) n, Long::sum);
  }

  /** Removes everything of a channel that is deleted. */
  synchronized void removeChannel(String channel) {
    TreeMap<Long, OutboxEntry> waiting = byChannel.getOrDefault(channel, new TreeMap<>());
    List<OutboxEntry> entries = List.copyOf(waiting.values());
    List<String> toldKeys =
        told.values().stream().filter(t -> t.channel().equals(channel)).map(Told::key).toList();
    store.write(
        "remove the notifications of channel " + channel,
        WritePriority.ROUTINE,
        w -> {
          RecordMap<Long, OutboxEntry> outbox = w.map(Formats.OUTBOX);
          entries.forEach(e -> outbox.remove(e.seq()));
          RecordMap<String, Told> toldMap = w.map(Formats.TOLD);
          toldKeys.forEach(toldMap::remove);
          return null;
        });
    entries.forEach(this::unindex);
    toldKeys.forEach(told::remove);
    byChannel.remove(channel);
    dropped.remove(channel);
  }

  /** Returns how many notifications wait for {@code channel}. */
  synchronized int waitingCount(String channel) {
    TreeMap<Long, OutboxEntry> waiting = byChannel.get(channel);
    return waiting == null ? 0 : waiting.size();
  }

  /** Returns the oldest waiting notification of {@code channel}, or null. */
  synchronized OutboxEntry oldest(String channel) {
    TreeMap<Long, OutboxEntry> waiting = byChannel.get(channel);
    return waiting == null || waiting.isEmpty() ? null : waiting.firstEntry().getValue();
  }

  /** Returns how many notifications of {@code channel} were dropped since start. */
  synchronized long droppedCount(String channel) {
    return dropped.getOrDefault(channel, 0L);
  }

  /**
   * Returns the oldest notifications that must go so that no channel holds more than its bound once
   * {@code added} are in: those waiting first, then the oldest of {@code added}; never one being
   * sent.
   */
  private List<OutboxEntry> overBound(List<OutboxEntry> added, List<OutboxEntry> replaced) {
    Map<String, List<OutboxEntry>> addedByChannel = new HashMap<>();
    for (OutboxEntry e : added) {
      addedByChannel.computeIfAbsent(e.channel(), c -> new ArrayList<>()).add(e);
    }
    List<OutboxEntry> trimmed = new ArrayList<>();
    addedByChannel.forEach(
        (channel, mine) -> {
          List<OutboxEntry> all = new ArrayList<>();
          for (OutboxEntry e : byChannel.getOrDefault(channel, new TreeMap<>()).values()) {
            if (!replaced.contains(e)) {
              all.add(e);
            }
          }
          all.addAll(mine);
          int over = all.size() - maxPerChannel;
          // The oldest go, even one being sent now (its attempt finishing later changes nothing):
          // a receiver that has been away for long has the newest findings waiting.
          for (OutboxEntry e : all) {
            if (over <= 0) {
              break;
            }
            trimmed.add(e);
            over--;
          }
        });
    return trimmed;
  }

  /**
   * Returns one notification standing for two about the same finding: the latest state, announced
   * as an opening if the receiver never heard the first, as a resolution if it resolved.
   */
  static Notification merge(Notification before, Notification after) {
    Event event = after.event();
    if (before.event() == Event.OPENED && (event == Event.CHANGED || event == Event.REPEATED)) {
      event = Event.OPENED;
    }
    return new Notification(
        after.id(), event, after.finding(), after.nodeLabels(), after.at(), after.notice());
  }

  private void index(OutboxEntry e) {
    byChannel.computeIfAbsent(e.channel(), c -> new TreeMap<>()).put(e.seq(), e);
    waitingByKey.put(e.dedupKey(), e.seq());
  }

  private void unindex(OutboxEntry e) {
    TreeMap<Long, OutboxEntry> waiting = byChannel.get(e.channel());
    if (waiting != null) {
      waiting.remove(e.seq());
    }
    waitingByKey.remove(e.dedupKey(), e.seq());
    inFlight.remove(e.seq());
  }
}
