package io.bulwark.health.scenarios;

import io.bulwark.lib.exposition.DcgmNames;
import io.bulwark.lib.exposition.ExpositionText;
import io.bulwark.sim.internal.ExporterText;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The fleet of one scenario as its exporters show it, second by second: each GPU's healthy readings
 * with the scenario's events applied, and each node's page in dcgm-exporter's text format (with
 * dcgm-exporter's labels, {@code # HELP}/{@code # TYPE} lines, integers as integers and DCGM's
 * doubles with six decimals). Pure function of the scenario, the naming and the second;
 * thread-safe.
 *
 * <p>The pages come in either generation of dcgm-exporter: {@link Naming#DCGM3} (DCGM 3.x field
 * names, the {@code Hostname} label) or {@link Naming#DCGM4} (DCGM 4.6.1's names for every field
 * that has one, the SM clock as {@code DCGM_FI_DEV_SM_CLOCK_HERTZ} in Hz, the {@code hostname}
 * label of dcgm-exporter's main branch).
 */
final class ScenarioFleet {
  /** The generation of names a page is written in. */
  enum Naming {
    DCGM3,
    DCGM4
  }

  private static final String[] BLANKS = {
    "9223372036854775794", "2147483632", "140737488355328.000000", "NaN"
  };

  /**
   * What a GPU idle for part of a scenario reads from its idle self; its counters and everything
   * else stay those of its busy self, so that they run on without a jump.
   */
  private static final Set<GpuField> LOAD =
      EnumSet.of(
          GpuField.GPU_TEMP,
          GpuField.SM_CLOCK,
          GpuField.POWER_USAGE,
          GpuField.GPU_UTIL,
          GpuField.MEM_COPY_UTIL,
          GpuField.CLOCK_EVENTS,
          GpuField.FB_USED,
          GpuField.GR_ENGINE_ACTIVE,
          GpuField.SM_ACTIVE,
          GpuField.SM_OCCUPANCY,
          GpuField.TENSOR_ACTIVE,
          GpuField.DRAM_ACTIVE);

  private final Scenario scenario;
  private final HealthyGpu[][] gpus;
  private final HealthyGpu[][] idleGpus;
  private final String[][] labels;
  private final Naming naming;
  private final String[] names = new String[GpuField.COUNT];
  private final DcgmNames.Alias[] conversions = new DcgmNames.Alias[GpuField.COUNT];

  ScenarioFleet(Scenario scenario) {
    this(scenario, Naming.DCGM3);
  }

  ScenarioFleet(Scenario scenario, Naming naming) {
    this.scenario = scenario;
    this.naming = naming;
    for (GpuField field : GpuField.values()) {
      String dcgm4 = naming == Naming.DCGM4 ? DcgmNames.dcgm4NameOf(field.field()) : null;
      names[field.ordinal()] = dcgm4 == null ? field.field() : dcgm4;
      conversions[field.ordinal()] = dcgm4 == null ? null : DcgmNames.dcgm4(dcgm4);
    }
    int n = scenario.nodes();
    int g = scenario.gpusPerNode();
    gpus = new HealthyGpu[n][g];
    idleGpus = new HealthyGpu[n][g];
    labels = new String[n][g];
    for (int node = 0; node < n; node++) {
      for (int gpu = 0; gpu < g; gpu++) {
        gpus[node][gpu] = new HealthyGpu(scenario.seed(), node, gpu, false);
        if (scenario.isEverIdle(node, gpu)) {
          idleGpus[node][gpu] = new HealthyGpu(scenario.seed(), node, gpu, true);
        }
        labels[node][gpu] = labels(node, gpu);
      }
    }
  }

  /** Returns true if node {@code node}'s exporter does not answer in second {@code t}. */
  boolean isDown(int node, int t) {
    for (ScenarioEvent e : scenario.events()) {
      if (e.type() == ScenarioEvent.Type.DOWN && e.covers(node, 0) && e.activeAt(t)) {
        return true;
      }
    }
    return false;
  }

  /** Returns the page node {@code node}'s exporter serves in second {@code t}. */
  String page(int node, int t) {
    int count = scenario.gpusPerNode();
    double[][] values = new double[count][];
    boolean[] present = new boolean[count];
    for (int g = 0; g < count; g++) {
      present[g] = !vanished(node, g, t);
      values[g] = present[g] ? readings(node, g, t) : null;
    }
    StringBuilder out = new StringBuilder(GpuField.COUNT * (90 + count * 240));
    for (GpuField field : GpuField.values()) {
      String name = names[field.ordinal()];
      out.append("# HELP ").append(name).append(' ').append(help(field)).append('\n');
      out.append("# TYPE ").append(name).append(' ').append(field.type()).append('\n');
      for (int g = 0; g < count; g++) {
        if (!present[g]) {
          continue;
        }
        out.append(name).append('{').append(labels[node][g]).append("} ");
        String blank = blank(node, g, field, t);
        double value = values[g][field.ordinal()];
        if (conversions[field.ordinal()] != null) {
          value = conversions[field.ordinal()].toDcgm4Unit(value);
        }
        if (blank != null) {
          out.append(blank);
        } else if (field.decimal()) {
          ExpositionText.appendDecimal(out, value);
        } else {
          out.append((long) value);
        }
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** Returns the readings of GPU {@code gpu} of node {@code node} in second {@code t}. */
  double[] readings(int node, int gpu, int t) {
    double[] out = raw(node, gpu, t);
    ScenarioEvent reset = latestReset(node, gpu, t);
    if (reset != null) {
      double[] atReset = raw(node, gpu, reset.at());
      for (GpuField f : GpuField.values()) {
        boolean resets =
            reset.field() == null ? f.counter() && f.resetByDriverReload() : f == reset.field();
        if (resets) {
          out[f.ordinal()] = Math.max(0, out[f.ordinal()] - atReset[f.ordinal()]);
        }
      }
    }
    return out;
  }

  private double[] raw(int node, int gpu, int t) {
    double[] out = new double[GpuField.COUNT];
    HealthyGpu healthy = gpus[node][gpu];
    healthy.readings(t, out);
    if (scenario.isIdle(node, gpu, t)) {
      healthy = idleGpus[node][gpu];
      if (scenario.isIdleThroughout(node, gpu)) {
        healthy.readings(t, out);
      } else {
        double[] idle = new double[GpuField.COUNT];
        healthy.readings(t, idle);
        for (GpuField f : LOAD) {
          out[f.ordinal()] = idle[f.ordinal()];
        }
      }
    }
    boolean[] touched = new boolean[GpuField.COUNT];
    for (ScenarioEvent e : scenario.events()) {
      if (e.field() == null || !e.covers(node, gpu) || t < e.at()) {
        continue;
      }
      int i = e.field().ordinal();
      switch (e.type()) {
        case SET -> {
          if (e.activeAt(t)) {
            out[i] = e.value();
            touched[i] = true;
          }
        }
        case STEP -> {
          if (e.activeAt(t) && e.pulsesAt(t)) {
            out[i] = stepped(e, out[i]);
            touched[i] = true;
          }
        }
        case RAMP -> {
          double share = Math.min(1.0, (double) (t - e.at()) / (e.until() - e.at()));
          out[i] = out[i] + e.by() * share;
          touched[i] = true;
        }
        case INCREMENT -> {
          int last = Math.min(t, e.until() - 1);
          out[i] += e.by() * ((last - e.at()) / e.every() + 1);
        }
        case FLAP -> {
          if (e.activeAt(t) && ((t - e.at()) / e.period()) % 2 == 0) {
            out[i] = e.value();
            touched[i] = true;
          }
        }
        default -> {}
      }
    }
    double temp = out[GpuField.GPU_TEMP.ordinal()];
    if (!touched[GpuField.MEMORY_TEMP.ordinal()]) {
      out[GpuField.MEMORY_TEMP.ordinal()] = healthy.memoryTemp(t, temp);
    }
    if (!touched[GpuField.GPU_TEMP_LIMIT.ordinal()]) {
      out[GpuField.GPU_TEMP_LIMIT.ordinal()] = HealthyGpu.SLOWDOWN_TEMP_C - temp;
    }
    if (!touched[GpuField.FB_FREE.ordinal()]) {
      out[GpuField.FB_FREE.ordinal()] = ExporterText.FB_TOTAL_MIB - out[GpuField.FB_USED.ordinal()];
    }
    return out;
  }

  private static double stepped(ScenarioEvent e, double value) {
    double v = value * e.factor() + e.by();
    return e.field() == GpuField.SM_CLOCK ? ExporterText.clockStep(v) : v;
  }

  private ScenarioEvent latestReset(int node, int gpu, int t) {
    ScenarioEvent latest = null;
    for (ScenarioEvent e : scenario.events()) {
      if (e.type() == ScenarioEvent.Type.RESET
          && e.covers(node, gpu)
          && e.at() <= t
          && (latest == null || e.at() >= latest.at())) {
        latest = e;
      }
    }
    return latest;
  }

  /** Returns the blank value the field of the GPU reads in second {@code t}, or null. */
  private String blank(int node, int gpu, GpuField field, int t) {
    String blank = null;
    for (ScenarioEvent e : scenario.events()) {
      if (e.type() == ScenarioEvent.Type.BLANK
          && e.field() == field
          && e.covers(node, gpu)
          && e.activeAt(t)) {
        blank = BLANKS[(int) e.value()];
      }
    }
    return blank;
  }

  private boolean vanished(int node, int gpu, int t) {
    for (ScenarioEvent e : scenario.events()) {
      if (e.type() == ScenarioEvent.Type.VANISH && e.covers(node, gpu) && e.activeAt(t)) {
        return true;
      }
    }
    return false;
  }

  private String labels(int node, int gpu) {
    long h = (scenario.seed() * 31 + node) * 131 + gpu;
    String hex =
        String.format(
            Locale.ROOT, "%016x%016x", h * 0x9E3779B97F4A7C15L, (h + 7) * 0xC2B2AE3D27D4EB4FL);
    String uuid =
        "GPU-"
            + hex.substring(0, 8)
            + "-"
            + hex.substring(8, 12)
            + "-"
            + hex.substring(12, 16)
            + "-"
            + hex.substring(16, 20)
            + "-"
            + hex.substring(20);
    String[] bus = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
    return "gpu=\""
        + gpu
        + "\",UUID=\""
        + uuid
        + "\",pci_bus_id=\"00000000:"
        + bus[gpu % bus.length]
        + ":00.0\",device=\"nvidia"
        + gpu
        + "\",modelName=\""
        + ExporterText.MODEL_NAME
        + (naming == Naming.DCGM4 ? "\",hostname=\"" : "\",Hostname=\"")
        + ExpositionText.escapeLabelValue(scenario.nodeName(node))
        + "\",DCGM_FI_DRIVER_VERSION=\"550.90.07\"";
  }

  private static String help(GpuField field) {
    return switch (field) {
      case XID_ERRORS -> "Value of the last XID error encountered.";
      case CLOCK_EVENTS -> "Current clock event reasons.";
      default -> field.field().substring("DCGM_FI_".length()).toLowerCase(Locale.ROOT) + ".";
    };
  }
}
