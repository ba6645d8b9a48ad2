package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import java.util.HashMap;
import java.util.Map;

/**
 * What several detectors of this bundle read or work out alike in one evaluation, done once: the
 * windows they share (the clock-event reasons and SM clock both throttle detectors judge), whether
 * a GPU was busy over a window, and the fleet's peer clocks. Held for the latest evaluation's
 * context only (as {@link ObservedGpu#all} holds its GPU list): the next evaluation, or the same
 * context at another time, starts afresh. Windows are immutable copies, so sharing them is safe.
 * Used on the engine's thread, one evaluation at a time.
 */
final class EvaluationMemo {
  private static volatile EvaluationMemo latest;

  private final DetectionContext context;
  private final long nowMillis;
  private final Map<WindowKey, SampleWindow> windows = new HashMap<>();
  private final Map<BusyKey, Busyness> busyness = new HashMap<>();
  private final Map<PeerKey, PeerClocks> peers = new HashMap<>();

  private EvaluationMemo(DetectionContext context) {
    this.context = context;
    this.nowMillis = context.nowMillis();
  }

  /** Returns the memo of {@code context}'s evaluation. */
  static EvaluationMemo of(DetectionContext context) {
    EvaluationMemo memo = latest;
    if (memo == null || memo.context != context || memo.nowMillis != context.nowMillis()) {
      memo = new EvaluationMemo(context);
      latest = memo;
    }
    return memo;
  }

  /** Returns the samples of {@code series} from {@code fromMillis}, read once per evaluation. */
  SampleWindow window(SeriesId series, long fromMillis) {
    WindowKey key = new WindowKey(series, fromMillis);
    SampleWindow window = windows.get(key);
    if (window == null) {
      window = context.telemetry().window(series, fromMillis);
      windows.put(key, window);
    }
    return window;
  }

  /** Returns whether {@code gpu} was busy from {@code fromMillis}, judged once per evaluation. */
  Busyness busyness(ObservedGpu gpu, long fromMillis, double busyUtilPercent) {
    BusyKey key = new BusyKey(gpu.node().value(), gpu.index(), fromMillis, busyUtilPercent);
    Busyness known = busyness.get(key);
    if (known == null) {
      known = Busyness.judge(context.telemetry(), gpu, fromMillis, busyUtilPercent);
      busyness.put(key, known);
    }
    return known;
  }

  /** Returns the fleet's peer clocks from {@code fromMillis}, worked out once per evaluation. */
  PeerClocks peers(long fromMillis, double busyUtilPercent) {
    return peers.computeIfAbsent(
        new PeerKey(fromMillis, busyUtilPercent),
        k -> new PeerClocks(context, this, fromMillis, busyUtilPercent));
  }

  private record WindowKey(SeriesId series, long fromMillis) {}

  private record BusyKey(String node, int gpu, long fromMillis, double busyUtilPercent) {}

  private record PeerKey(long fromMillis, double busyUtilPercent) {}
}
