package io.bulwark.agent.internal;

import static io.bulwark.agent.internal.NvmlLibrary.*;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;

/**
 * Sums a GPU's NVLink error counters (CRC flit, CRC data, replay, recovery) over its links, as
 * dcgm-exporter's {@code *_COUNT_TOTAL} fields do. A link that answers "not supported" or "invalid
 * argument" (no such link) is skipped; a GPU without a single NVLink gets none of the four
 * readings.
 */
final class NvLinkErrors {
  private static final String FUNCTION = "nvmlDeviceGetNvLinkErrorCounter";
  private static final int[] COUNTERS = {
    NVML_NVLINK_ERROR_DL_REPLAY,
    NVML_NVLINK_ERROR_DL_RECOVERY,
    NVML_NVLINK_ERROR_DL_CRC_FLIT,
    NVML_NVLINK_ERROR_DL_CRC_DATA
  };
  private static final AgentMetric[] METRICS = {
    AgentMetric.NVLINK_REPLAY,
    AgentMetric.NVLINK_RECOVERY,
    AgentMetric.NVLINK_CRC_FLIT,
    AgentMetric.NVLINK_CRC_DATA
  };

  private final GpuReader reader;
  private final NvmlLibrary nvml;

  NvLinkErrors(GpuReader reader, NvmlLibrary nvml) {
    this.reader = reader;
    this.nvml = nvml;
  }

  /**
   * Adds the four totals to {@code gpu}, for the counters at least one link reported.
   *
   * @throws GpuLostException if NVML says the GPU is lost
   */
  void read(GpuReading gpu, Pointer device) throws GpuLostException {
    double[] totals = new double[COUNTERS.length];
    boolean[] reported = new boolean[COUNTERS.length];
    LongByReference value = new LongByReference();
    for (int link = 0; link < NVML_NVLINK_MAX_LINKS; link++) {
      for (int c = 0; c < COUNTERS.length; c++) {
        int code = nvml.nvmlDeviceGetNvLinkErrorCounter(device, link, COUNTERS[c], value);
        if (code == NvmlReturn.INVALID_ARGUMENT || NvmlReturn.absent(code)) {
          if (c == 0) {
            break;
          }
          continue;
        }
        if (reader.ok(gpu.index, FUNCTION, code)) {
          totals[c] += GpuReader.unsigned(value.getValue());
          reported[c] = true;
        }
      }
    }
    for (int c = 0; c < COUNTERS.length; c++) {
      if (reported[c]) {
        gpu.set(METRICS[c], totals[c]);
      }
    }
  }
}
