package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.DcgmField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The median SM clock of the busy GPUs of one model across the fleet over a window: what a GPU of
 * that model runs at when it is sound. Computed lazily, once per model and evaluation, shared by
 * the throttle detectors through the {@link EvaluationMemo}.
 */
final class PeerClocks {
  private final DetectionContext context;
  private final EvaluationMemo memo;
  private final long fromMillis;
  private final double busyUtilPercent;
  private final Map<String, Double> byModel = new HashMap<>();
  private List<ObservedGpu> gpus;

  PeerClocks(
      DetectionContext context, EvaluationMemo memo, long fromMillis, double busyUtilPercent) {
    this.context = context;
    this.memo = memo;
    this.fromMillis = fromMillis;
    this.busyUtilPercent = busyUtilPercent;
  }

  /**
   * Returns the median SM clock (MHz) of the busy GPUs of {@code model}, or NaN if none reports
   * one.
   */
  double median(String model) {
    return byModel.computeIfAbsent(model, this::compute);
  }

  private double compute(String model) {
    if (gpus == null) {
      gpus = ObservedGpu.all(context);
    }
    List<Double> medians = new ArrayList<>();
    for (ObservedGpu gpu : gpus) {
      if (!gpu.model().equals(model) || !memo.busyness(gpu, fromMillis, busyUtilPercent).busy()) {
        continue;
      }
      double m =
          RobustStatistics.median(
              RobustStatistics.finite(memo.window(gpu.series(DcgmField.SM_CLOCK), fromMillis)));
      if (Double.isFinite(m)) {
        medians.add(m);
      }
    }
    return RobustStatistics.median(medians.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
