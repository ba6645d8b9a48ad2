package io.bulwark.agent.internal;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The NVML calls the node agent makes, bound through JNA to {@code libnvidia-ml.so.1} as declared
 * in NVIDIA's {@code nvml.h}: every function returns an {@code nvmlReturn_t} ({@link NvmlReturn}),
 * {@code nvmlDevice_t} and {@code nvmlEventSet_t} are opaque pointers, {@code unsigned int} and
 * enums are {@code int}, {@code unsigned long long} is {@code long}. NVML is thread-safe; the
 * handles stay valid until {@link #nvmlShutdown()}.
 */
public interface NvmlLibrary extends Library {
  int NVML_TEMPERATURE_GPU = 0;
  int NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0;
  int NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1;
  int NVML_CLOCK_SM = 1;
  int NVML_CLOCK_MEM = 2;
  int NVML_PERF_POLICY_POWER = 0;
  int NVML_PERF_POLICY_THERMAL = 1;
  int NVML_MEMORY_ERROR_TYPE_CORRECTED = 0;
  int NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1;
  int NVML_VOLATILE_ECC = 0;
  int NVML_AGGREGATE_ECC = 1;
  int NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS = 0;
  int NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR = 1;
  int NVML_NVLINK_ERROR_DL_REPLAY = 0;
  int NVML_NVLINK_ERROR_DL_RECOVERY = 1;
  int NVML_NVLINK_ERROR_DL_CRC_FLIT = 2;
  int NVML_NVLINK_ERROR_DL_CRC_DATA = 3;
  int NVML_NVLINK_MAX_LINKS = 18;
  int NVML_FI_DEV_MEMORY_TEMP = 82;
  long NVML_EVENT_TYPE_XID_CRITICAL_ERROR = 0x8L;
  int NVML_DEVICE_UUID_V2_BUFFER_SIZE = 96;
  int NVML_DEVICE_SERIAL_BUFFER_SIZE = 30;
  int NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96;
  int NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80;

  int nvmlInit_v2();

  int nvmlShutdown();

  String nvmlErrorString(int result);

  int nvmlSystemGetDriverVersion(byte[] version, int length);

  int nvmlDeviceGetCount_v2(IntByReference deviceCount);

  int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

  int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

  int nvmlDeviceGetSerial(Pointer device, byte[] serial, int length);

  int nvmlDeviceGetName(Pointer device, byte[] name, int length);

  int nvmlDeviceGetPciInfo_v3(Pointer device, NvmlStructures.PciInfo pci);

  int nvmlDeviceGetTemperature(Pointer device, int sensorType, IntByReference temp);

  int nvmlDeviceGetTemperatureThreshold(Pointer device, int thresholdType, IntByReference temp);

  int nvmlDeviceGetFieldValues(Pointer device, int valuesCount, NvmlStructures.FieldValue values);

  int nvmlDeviceGetClockInfo(Pointer device, int type, IntByReference clock);

  int nvmlDeviceGetMaxClockInfo(Pointer device, int type, IntByReference clock);

  int nvmlDeviceGetPowerUsage(Pointer device, IntByReference power);

  int nvmlDeviceGetPowerManagementLimit(Pointer device, IntByReference limit);

  int nvmlDeviceGetEnforcedPowerLimit(Pointer device, IntByReference limit);

  int nvmlDeviceGetUtilizationRates(Pointer device, NvmlStructures.Utilization utilization);

  int nvmlDeviceGetCurrentClocksEventReasons(Pointer device, LongByReference reasons);

  int nvmlDeviceGetCurrentClocksThrottleReasons(Pointer device, LongByReference reasons);

  int nvmlDeviceGetViolationStatus(
      Pointer device, int perfPolicyType, NvmlStructures.ViolationTime violTime);

  int nvmlDeviceGetTotalEccErrors(
      Pointer device, int errorType, int counterType, LongByReference eccCounts);

  int nvmlDeviceGetRetiredPages_v2(
      Pointer device, int cause, IntByReference pageCount, Pointer addresses, Pointer timestamps);

  int nvmlDeviceGetRetiredPagesPendingStatus(Pointer device, IntByReference isPending);

  int nvmlDeviceGetRemappedRows(
      Pointer device,
      IntByReference corrRows,
      IntByReference uncRows,
      IntByReference isPending,
      IntByReference failureOccurred);

  int nvmlDeviceGetRowRemapperHistogram(Pointer device, NvmlStructures.RemapperHistogram values);

  int nvmlDeviceGetCurrPcieLinkGeneration(Pointer device, IntByReference currLinkGen);

  int nvmlDeviceGetCurrPcieLinkWidth(Pointer device, IntByReference currLinkWidth);

  int nvmlDeviceGetMaxPcieLinkGeneration(Pointer device, IntByReference maxLinkGen);

  int nvmlDeviceGetMaxPcieLinkWidth(Pointer device, IntByReference maxLinkWidth);

  int nvmlDeviceGetPcieReplayCounter(Pointer device, IntByReference value);

  int nvmlDeviceGetNvLinkErrorCounter(
      Pointer device, int link, int counter, LongByReference counterValue);

  int nvmlEventSetCreate(PointerByReference set);

  int nvmlDeviceRegisterEvents(Pointer device, long eventTypes, Pointer set);

  int nvmlEventSetWait_v2(Pointer set, NvmlStructures.EventData data, int timeoutms);

  int nvmlEventSetFree(Pointer set);
}
