package io.bulwark.agent.internal;

import static io.bulwark.agent.internal.NvmlLibrary.*;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;

/**
 * Reads one GPU's identity and readings through NVML into a {@link GpuReading}. Every call's {@code
 * nvmlReturn_t} is checked: "not supported" leaves the reading out, {@code GPU_IS_LOST} abandons
 * the GPU ({@link GpuLostException}), any other failure leaves the reading out and is reported to
 * {@link CallProblems}. Called on the sampling thread only.
 */
final class GpuReader {
  private static final double MILLI = 1_000.0;

  private final NvmlLibrary nvml;
  private final CallProblems problems;
  private volatile boolean clockEventsMissing;

  GpuReader(NvmlLibrary nvml, CallProblems problems) {
    this.nvml = nvml;
    this.problems = problems;
  }

  /**
   * Reads GPU {@code index} through {@code device}.
   *
   * @throws GpuLostException if NVML says the GPU is lost
   */
  GpuReading read(int index, Pointer device) throws GpuLostException {
    GpuReading gpu = new GpuReading(index);
    readIdentity(gpu, device);
    readThermal(gpu, device);
    readClocksAndPower(gpu, device);
    readMemoryErrors(gpu, device);
    readPcie(gpu, device);
    new NvLinkErrors(this, nvml).read(gpu, device);
    return gpu;
  }

  /**
   * Returns true if {@code code} is success; false if the reading is absent or failed.
   *
   * @throws GpuLostException if the code says the GPU is lost
   */
  boolean ok(int gpu, String function, int code) throws GpuLostException {
    if (code == NvmlReturn.SUCCESS) {
      return true;
    }
    if (code == NvmlReturn.GPU_IS_LOST) {
      throw new GpuLostException(gpu, function);
    }
    if (!NvmlReturn.absent(code)) {
      problems.report(gpu, function, code);
    }
    return false;
  }

  private void readIdentity(GpuReading gpu, Pointer device) throws GpuLostException {
    int i = gpu.index;
    byte[] text = new byte[NVML_DEVICE_UUID_V2_BUFFER_SIZE];
    if (ok(i, "nvmlDeviceGetUUID", nvml.nvmlDeviceGetUUID(device, text, text.length))) {
      gpu.uuid = Native.toString(text);
    }
    text = new byte[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
    if (ok(i, "nvmlDeviceGetName", nvml.nvmlDeviceGetName(device, text, text.length))) {
      gpu.model = Native.toString(text);
    }
    text = new byte[NVML_DEVICE_SERIAL_BUFFER_SIZE];
    if (ok(i, "nvmlDeviceGetSerial", nvml.nvmlDeviceGetSerial(device, text, text.length))) {
      gpu.serial = Native.toString(text);
    }
    NvmlStructures.PciInfo pci = new NvmlStructures.PciInfo();
    if (ok(i, "nvmlDeviceGetPciInfo_v3", nvml.nvmlDeviceGetPciInfo_v3(device, pci))) {
      gpu.pciBusId = Native.toString(pci.busId);
    }
  }

  private void readThermal(GpuReading gpu, Pointer device) throws GpuLostException {
    int i = gpu.index;
    IntByReference value = new IntByReference();
    if (ok(
        i,
        "nvmlDeviceGetTemperature",
        nvml.nvmlDeviceGetTemperature(device, NVML_TEMPERATURE_GPU, value))) {
      gpu.set(AgentMetric.GPU_TEMP, unsigned(value));
    }
    NvmlStructures.FieldValue field = new NvmlStructures.FieldValue();
    field.fieldId = NVML_FI_DEV_MEMORY_TEMP;
    if (ok(i, "nvmlDeviceGetFieldValues", nvml.nvmlDeviceGetFieldValues(device, 1, field))
        && ok(i, "nvmlDeviceGetFieldValues(NVML_FI_DEV_MEMORY_TEMP)", field.nvmlReturn)) {
      double temp = field.number();
      if (!Double.isNaN(temp)) {
        gpu.set(AgentMetric.MEMORY_TEMP, temp);
      }
    }
    if (ok(
        i,
        "nvmlDeviceGetTemperatureThreshold",
        nvml.nvmlDeviceGetTemperatureThreshold(
            device, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, value))) {
      gpu.set(AgentMetric.SLOWDOWN_TEMP, unsigned(value));
    }
    if (ok(
        i,
        "nvmlDeviceGetTemperatureThreshold",
        nvml.nvmlDeviceGetTemperatureThreshold(
            device, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, value))) {
      gpu.set(AgentMetric.SHUTDOWN_TEMP, unsigned(value));
    }
  }

  private void readClocksAndPower(GpuReading gpu, Pointer device) throws GpuLostException {
    int i = gpu.index;
    IntByReference value = new IntByReference();
    if (ok(
        i, "nvmlDeviceGetClockInfo", nvml.nvmlDeviceGetClockInfo(device, NVML_CLOCK_SM, value))) {
      gpu.set(AgentMetric.SM_CLOCK, unsigned(value));
    }
    if (ok(
        i, "nvmlDeviceGetClockInfo", nvml.nvmlDeviceGetClockInfo(device, NVML_CLOCK_MEM, value))) {
      gpu.set(AgentMetric.MEM_CLOCK, unsigned(value));
    }
    if (ok(
        i,
        "nvmlDeviceGetMaxClockInfo",
        nvml.nvmlDeviceGetMaxClockInfo(device, NVML_CLOCK_SM, value))) {
      gpu.set(AgentMetric.MAX_SM_CLOCK, unsigned(value));
    }
    if (ok(
        i,
        "nvmlDeviceGetMaxClockInfo",
        nvml.nvmlDeviceGetMaxClockInfo(device, NVML_CLOCK_MEM, value))) {
      gpu.set(AgentMetric.MAX_MEM_CLOCK, unsigned(value));
    }
    if (ok(i, "nvmlDeviceGetPowerUsage", nvml.nvmlDeviceGetPowerUsage(device, value))) {
      gpu.set(AgentMetric.POWER_USAGE, unsigned(value) / MILLI);
    }
    if (ok(
        i,
        "nvmlDeviceGetPowerManagementLimit",
        nvml.nvmlDeviceGetPowerManagementLimit(device, value))) {
      gpu.set(AgentMetric.POWER_LIMIT, unsigned(value) / MILLI);
    }
    if (ok(
        i,
        "nvmlDeviceGetEnforcedPowerLimit",
        nvml.nvmlDeviceGetEnforcedPowerLimit(device, value))) {
      gpu.set(AgentMetric.ENFORCED_POWER_LIMIT, unsigned(value) / MILLI);
    }
    NvmlStructures.Utilization utilization = new NvmlStructures.Utilization();
    if (ok(
        i,
        "nvmlDeviceGetUtilizationRates",
        nvml.nvmlDeviceGetUtilizationRates(device, utilization))) {
      gpu.set(AgentMetric.GPU_UTIL, utilization.gpu & 0xFFFF_FFFFL);
      gpu.set(AgentMetric.MEM_COPY_UTIL, utilization.memory & 0xFFFF_FFFFL);
    }
    readClockEvents(gpu, device);
    NvmlStructures.ViolationTime violation = new NvmlStructures.ViolationTime();
    if (ok(
        i,
        "nvmlDeviceGetViolationStatus",
        nvml.nvmlDeviceGetViolationStatus(device, NVML_PERF_POLICY_POWER, violation))) {
      gpu.set(AgentMetric.POWER_VIOLATION, unsigned(violation.violationTime));
    }
    if (ok(
        i,
        "nvmlDeviceGetViolationStatus",
        nvml.nvmlDeviceGetViolationStatus(device, NVML_PERF_POLICY_THERMAL, violation))) {
      gpu.set(AgentMetric.THERMAL_VIOLATION, unsigned(violation.violationTime));
    }
  }

  /**
   * Reads the clock event reasons; drivers before r535 only have the older "throttle reasons" call,
   * which answers the same bit mask.
   */
  private void readClockEvents(GpuReading gpu, Pointer device) throws GpuLostException {
    LongByReference reasons = new LongByReference();
    if (!clockEventsMissing) {
      try {
        int code = nvml.nvmlDeviceGetCurrentClocksEventReasons(device, reasons);
        if (code != NvmlReturn.FUNCTION_NOT_FOUND) {
          if (ok(gpu.index, "nvmlDeviceGetCurrentClocksEventReasons", code)) {
            gpu.set(AgentMetric.CLOCK_EVENTS, unsigned(reasons.getValue()));
          }
          return;
        }
      } catch (UnsatisfiedLinkError olderDriver) {
        clockEventsMissing = true;
      }
    }
    if (ok(
        gpu.index,
        "nvmlDeviceGetCurrentClocksThrottleReasons",
        nvml.nvmlDeviceGetCurrentClocksThrottleReasons(device, reasons))) {
      gpu.set(AgentMetric.CLOCK_EVENTS, unsigned(reasons.getValue()));
    }
  }

  private void readMemoryErrors(GpuReading gpu, Pointer device) throws GpuLostException {
    int i = gpu.index;
    readEcc(
        gpu, device, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC, AgentMetric.ECC_SBE_VOL);
    readEcc(
        gpu,
        device,
        NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
        NVML_VOLATILE_ECC,
        AgentMetric.ECC_DBE_VOL);
    readEcc(
        gpu, device, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_AGGREGATE_ECC, AgentMetric.ECC_SBE_AGG);
    readEcc(
        gpu,
        device,
        NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
        NVML_AGGREGATE_ECC,
        AgentMetric.ECC_DBE_AGG);
    readRetiredPages(
        gpu,
        device,
        NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS,
        AgentMetric.RETIRED_SBE);
    readRetiredPages(
        gpu, device, NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR, AgentMetric.RETIRED_DBE);
    IntByReference pending = new IntByReference();
    if (ok(
        i,
        "nvmlDeviceGetRetiredPagesPendingStatus",
        nvml.nvmlDeviceGetRetiredPagesPendingStatus(device, pending))) {
      gpu.set(AgentMetric.RETIRED_PENDING, pending.getValue() != 0 ? 1 : 0);
    }
    IntByReference corrected = new IntByReference();
    IntByReference uncorrected = new IntByReference();
    IntByReference remapPending = new IntByReference();
    IntByReference failed = new IntByReference();
    if (ok(
        i,
        "nvmlDeviceGetRemappedRows",
        nvml.nvmlDeviceGetRemappedRows(device, corrected, uncorrected, remapPending, failed))) {
      gpu.set(AgentMetric.CORRECTABLE_REMAPPED_ROWS, unsigned(corrected));
      gpu.set(AgentMetric.UNCORRECTABLE_REMAPPED_ROWS, unsigned(uncorrected));
      gpu.set(AgentMetric.ROW_REMAP_PENDING, remapPending.getValue() != 0 ? 1 : 0);
      gpu.set(AgentMetric.ROW_REMAP_FAILURE, failed.getValue() != 0 ? 1 : 0);
    }
    NvmlStructures.RemapperHistogram banks = new NvmlStructures.RemapperHistogram();
    if (ok(
        i,
        "nvmlDeviceGetRowRemapperHistogram",
        nvml.nvmlDeviceGetRowRemapperHistogram(device, banks))) {
      gpu.set(AgentMetric.BANKS_REMAP_MAX, banks.max & 0xFFFF_FFFFL);
      gpu.set(AgentMetric.BANKS_REMAP_HIGH, banks.high & 0xFFFF_FFFFL);
      gpu.set(AgentMetric.BANKS_REMAP_PARTIAL, banks.partial & 0xFFFF_FFFFL);
      gpu.set(AgentMetric.BANKS_REMAP_LOW, banks.low & 0xFFFF_FFFFL);
      gpu.set(AgentMetric.BANKS_REMAP_NONE, banks.none & 0xFFFF_FFFFL);
    }
  }

  private void readEcc(
      GpuReading gpu, Pointer device, int errorType, int counterType, AgentMetric metric)
      throws GpuLostException {
    LongByReference count = new LongByReference();
    if (ok(
        gpu.index,
        "nvmlDeviceGetTotalEccErrors",
        nvml.nvmlDeviceGetTotalEccErrors(device, errorType, counterType, count))) {
      gpu.set(metric, unsigned(count.getValue()));
    }
  }

  /** Counts the retired pages of {@code cause}: asked with no buffer, NVML answers the count. */
  private void readRetiredPages(GpuReading gpu, Pointer device, int cause, AgentMetric metric)
      throws GpuLostException {
    IntByReference pages = new IntByReference(0);
    int code = nvml.nvmlDeviceGetRetiredPages_v2(device, cause, pages, null, null);
    if (code == NvmlReturn.INSUFFICIENT_SIZE
        || ok(gpu.index, "nvmlDeviceGetRetiredPages_v2", code)) {
      gpu.set(metric, unsigned(pages));
    }
  }

  private void readPcie(GpuReading gpu, Pointer device) throws GpuLostException {
    int i = gpu.index;
    IntByReference value = new IntByReference();
    if (ok(
        i,
        "nvmlDeviceGetCurrPcieLinkGeneration",
        nvml.nvmlDeviceGetCurrPcieLinkGeneration(device, value))) {
      gpu.set(AgentMetric.PCIE_LINK_GEN, unsigned(value));
    }
    if (ok(
        i, "nvmlDeviceGetCurrPcieLinkWidth", nvml.nvmlDeviceGetCurrPcieLinkWidth(device, value))) {
      gpu.set(AgentMetric.PCIE_LINK_WIDTH, unsigned(value));
    }
    if (ok(
        i,
        "nvmlDeviceGetMaxPcieLinkGeneration",
        nvml.nvmlDeviceGetMaxPcieLinkGeneration(device, value))) {
      gpu.set(AgentMetric.PCIE_MAX_LINK_GEN, unsigned(value));
    }
    if (ok(i, "nvmlDeviceGetMaxPcieLinkWidth", nvml.nvmlDeviceGetMaxPcieLinkWidth(device, value))) {
      gpu.set(AgentMetric.PCIE_MAX_LINK_WIDTH, unsigned(value));
    }
    if (ok(
        i, "nvmlDeviceGetPcieReplayCounter", nvml.nvmlDeviceGetPcieReplayCounter(device, value))) {
      gpu.set(AgentMetric.PCIE_REPLAY, unsigned(value));
    }
  }

  static double unsigned(IntByReference value) {
    return value.getValue() & 0xFFFF_FFFFL;
  }

  static double unsigned(long value) {
    return value >= 0 ? value : Double.parseDouble(Long.toUnsignedString(value));
  }
}
