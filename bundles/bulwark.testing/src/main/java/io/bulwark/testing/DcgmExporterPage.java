package io.bulwark.testing;

import java.util.List;
import java.util.Locale;

/**
 * Renders pages as dcgm-exporter serves them: 30 of its default fields, each with HELP and TYPE
 * lines and one sample per GPU carrying dcgm-exporter's full label set (gpu, UUID, pci_bus_id,
 * device, modelName, Hostname, DCGM_FI_DRIVER_VERSION). Used by the tests and the benchmark.
 */
public final class DcgmExporterPage {
  /** A dcgm-exporter field: name, type and help text. */
  public record Field(String name, String type, String help) {}

  /** The 30 fields of the page, in dcgm-exporter's order. */
  public static final List<Field> FIELDS =
      List.of(
          new Field("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."),
          new Field("DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz)."),
          new Field("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C)."),
          new Field("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."),
          new Field("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."),
          new Field("DCGM_FI_DEV_POWER_MGMT_LIMIT", "gauge", "Power management limit (in W)."),
          new Field(
              "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
              "counter",
              "Total energy consumption since boot (in mJ)."),
          new Field("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries."),
          new Field("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."),
          new Field("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."),
          new Field("DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %)."),
          new Field("DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %)."),
          new Field("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."),
          new Field("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."),
          new Field("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."),
          new Field("DCGM_FI_DEV_FB_RESERVED", "gauge", "Framebuffer memory reserved (in MiB)."),
          new Field(
              "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
              "counter",
              "Total number of single-bit volatile ECC errors."),
          new Field(
              "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
              "counter",
              "Total number of double-bit volatile ECC errors."),
          new Field(
              "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL",
              "counter",
              "Total number of single-bit persistent ECC errors."),
          new Field(
              "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
              "counter",
              "Total number of double-bit persistent ECC errors."),
          new Field(
              "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
              "counter",
              "Number of remapped rows for uncorrectable errors"),
          new Field(
              "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
              "counter",
              "Number of remapped rows for correctable errors"),
          new Field(
              "DCGM_FI_DEV_ROW_REMAP_FAILURE", "gauge", "Whether remapping of rows has failed"),
          new Field(
              "DCGM_FI_DEV_ROW_REMAP_PENDING", "gauge", "Whether remapping of rows is pending"),
          new Field(
              "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
              "counter",
              "Total number of NVLink bandwidth counters for all lanes."),
          new Field(
              "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "gauge", "Current clock throttle reasons."),
          new Field(
              "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
              "gauge",
              "Ratio of time the graphics engine is active."),
          new Field(
              "DCGM_FI_PROF_SM_ACTIVE",
              "gauge",
              "The ratio of cycles an SM has at least 1 warp assigned."),
          new Field(
              "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
              "gauge",
              "Ratio of cycles the tensor (HMMA) pipe is active."),
          new Field(
              "DCGM_FI_PROF_DRAM_ACTIVE",
              "gauge",
              "Ratio of cycles the device memory interface is active."));

  private DcgmExporterPage() {}

  /** Returns the UUID dcgm-exporter would report for GPU {@code gpu} of node {@code hostname}. */
  public static String uuid(String hostname, int gpu) {
    return String.format(
        Locale.ROOT, "GPU-%08x-d9cf-fef3-62e9-d92044ab6e%02d", hostname.hashCode(), gpu);
  }

  /**
   * Returns the value of field number {@code field} of {@link #FIELDS} on GPU {@code gpu} in round
   * {@code round}.
   */
  public static double value(int field, int gpu, long round) {
    return switch (field % 5) {
      case 0 -> 1000 + field * 7 + gpu + round % 100;
      case 1 -> 30 + gpu + (round % 17) * 0.25;
      case 2 -> (field * 131 + gpu * 17 + round) % 1000 / 1000.0;
      case 3 -> 312.457 + gpu - round % 13;
      default -> (round + gpu) % 3 == 0 ? 0 : 123456789012L + round;
    };
  }

  /**
   * Renders the page of node {@code hostname} with {@code gpus} H100 GPUs in round {@code round}.
   */
  public static String render(String hostname, int gpus, long round) {
    StringBuilder page = new StringBuilder(gpus * FIELDS.size() * 256);
    for (int f = 0; f < FIELDS.size(); f++) {
      Field field = FIELDS.get(f);
      page.append("# HELP ").append(field.name()).append(' ').append(field.help()).append('\n');
      page.append("# TYPE ").append(field.name()).append(' ').append(field.type()).append('\n');
      for (int gpu = 0; gpu < gpus; gpu++) {
        page.append(field.name())
            .append("{gpu=\"")
            .append(gpu)
            .append("\",UUID=\"")
            .append(uuid(hostname, gpu))
            .append("\",pci_bus_id=\"00000000:")
            .append(String.format(Locale.ROOT, "%02X", 0x18 + gpu * 0x10))
            .append(":00.0\",device=\"nvidia")
            .append(gpu)
            .append("\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"")
            .append(hostname)
            .append("\",DCGM_FI_DRIVER_VERSION=\"535.129.03\"} ");
        double value = value(f, gpu, round);
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
          page.append((long) value);
        } else {
          page.append(value);
        }
        page.append('\n');
      }
    }
    return page.toString();
  }
}
