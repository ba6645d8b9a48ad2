/*
 * Stand-in for libnvidia-ml.so.1 in the tests: no GPU exists where they run, so this library
 * follows the NVML ABI (the nvml.h signatures, struct layouts and return codes) for the subset the
 * node agent calls, and answers with values scripted in a control file. The agent loads it
 * through the real JNA path (jna.library.path), exactly as it loads NVIDIA's library.
 *
 * The control file is $FAKE_NVML_CONTROL, or fake-nvml.conf next to this library. It is read again
 * by nvmlInit_v2, nvmlDeviceGetCount_v2 and while waiting for events. One directive per line:
 *   init <code>                 nvmlInit_v2 returns <code> (e.g. 9, driver not loaded)
 *   driver <version>            nvmlSystemGetDriverVersion
 *   gpus <n>                    number of GPUs enumerated
 *   gpu <i> <key> <value>       a reading of GPU i; a key that is absent answers NOT_SUPPORTED
 *   xid <i> <code>              an XID event of GPU i, delivered once, in file order
 * Keys: uuid serial name bus lost temp memtemp slowdown shutdown sm_clock mem_clock max_sm_clock
 * max_mem_clock power_mw mgmt_limit_mw enforced_limit_mw util_gpu util_mem clock_reasons
 * no_event_reasons violation_power_ns violation_thermal_ns ecc_sbe_vol ecc_dbe_vol ecc_sbe_agg
 * ecc_dbe_agg retired_sbe retired_dbe retired_pending remap_corr remap_unc remap_pending
 * remap_failure hist_max hist_high hist_partial hist_low hist_none pcie_gen pcie_width
 * pcie_max_gen pcie_max_width pcie_replay nvlinks nvlink_replay nvlink_recovery nvlink_crc_flit
 * nvlink_crc_data xid_unsupported.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int nvmlReturn_t;
#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_TIMEOUT 10
#define NVML_ERROR_FUNCTION_NOT_FOUND 13
#define NVML_ERROR_GPU_IS_LOST 15

#define MAX_GPUS 16
#define MAX_KEYS 64
#define MAX_XIDS 256
#define NVML_NVLINK_MAX_LINKS 18

struct key_value {
  char key[32];
  char value[96];
};

struct fake_gpu {
  int index;
  int nkeys;
  struct key_value keys[MAX_KEYS];
  int xid_registered;
};

typedef struct fake_gpu *nvmlDevice_t;

typedef struct {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef struct {
  unsigned int gpu;
  unsigned int memory;
} nvmlUtilization_t;

typedef struct {
  unsigned long long referenceTime;
  unsigned long long violationTime;
} nvmlViolationTime_t;

typedef struct {
  unsigned int max, high, partial, low, none;
} nvmlRowRemapperHistogramValues_t;

typedef union {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  long long sllVal;
  int siVal;
  unsigned short usVal;
} nvmlValue_t;

typedef struct {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;
  long long latencyUsec;
  int valueType;
  nvmlReturn_t nvmlReturn;
  nvmlValue_t value;
} nvmlFieldValue_t;

typedef struct {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlEventData_t;

struct fake_event_set {
  int created;
};
typedef struct fake_event_set *nvmlEventSet_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fake_gpu gpus[MAX_GPUS];
static int gpu_count;
static int init_code;
static int initialized;
static char driver[32];
static int xid_gpu[MAX_XIDS];
static int xid_code[MAX_XIDS];
static int xid_count;
static int xid_delivered;
static struct fake_event_set event_set;

static void control_path(char *path, size_t size) {
  const char *env = getenv("FAKE_NVML_CONTROL");
  if (env != NULL && env[0] != '\0') {
    snprintf(path, size, "%s", env);
    return;
  }
  Dl_info info;
  if (dladdr((void *)control_path, &info) && info.dli_fname != NULL) {
    snprintf(path, size, "%s", info.dli_fname);
    char *slash = strrchr(path, '/');
    if (slash != NULL) {
      snprintf(slash + 1, size - (size_t)(slash + 1 - path), "fake-nvml.conf");
      return;
    }
  }
  snprintf(path, size, "fake-nvml.conf");
}

static void set_key(struct fake_gpu *gpu, const char *key, const char *value) {
  for (int k = 0; k < gpu->nkeys; k++) {
    if (strcmp(gpu->keys[k].key, key) == 0) {
      snprintf(gpu->keys[k].value, sizeof gpu->keys[k].value, "%s", value);
      return;
    }
  }
  if (gpu->nkeys < MAX_KEYS) {
    snprintf(gpu->keys[gpu->nkeys].key, sizeof gpu->keys[0].key, "%s", key);
    snprintf(gpu->keys[gpu->nkeys].value, sizeof gpu->keys[0].value, "%s", value);
    gpu->nkeys++;
  }
}

/* Reads the control file again; keeps the events already delivered. Called with the lock held. */
static void reload(void) {
  char path[4096];
  control_path(path, sizeof path);
  FILE *file = fopen(path, "r");
  for (int i = 0; i < MAX_GPUS; i++) {
    gpus[i].index = i;
    gpus[i].nkeys = 0;
  }
  gpu_count = 0;
  init_code = NVML_SUCCESS;
  xid_count = 0;
  snprintf(driver, sizeof driver, "%s", "550.54.15");
  if (file == NULL) {
    return;
  }
  char line[512];
  while (fgets(line, sizeof line, file) != NULL) {
    char word[32], key[32], value[96];
    int index, number;
    line[strcspn(line, "\r\n")] = '\0';
    if (sscanf(line, "gpu %d %31s %95[^\n]", &index, key, value) == 3) {
      if (index >= 0 && index < MAX_GPUS) {
        set_key(&gpus[index], key, value);
      }
    } else if (sscanf(line, "xid %d %d", &index, &number) == 2) {
      if (xid_count < MAX_XIDS) {
        xid_gpu[xid_count] = index;
        xid_code[xid_count] = number;
        xid_count++;
      }
    } else if (sscanf(line, "gpus %d", &number) == 1) {
      gpu_count = number < 0 ? 0 : (number > MAX_GPUS ? MAX_GPUS : number);
    } else if (sscanf(line, "init %d", &number) == 1) {
      init_code = number;
    } else if (sscanf(line, "driver %31s", word) == 1) {
      snprintf(driver, sizeof driver, "%s", word);
    }
  }
  fclose(file);
}

static const char *text(nvmlDevice_t gpu, const char *key) {
  for (int k = 0; k < gpu->nkeys; k++) {
    if (strcmp(gpu->keys[k].key, key) == 0) {
      return gpu->keys[k].value;
    }
  }
  return NULL;
}

static int valid(nvmlDevice_t gpu) {
  return gpu >= &gpus[0] && gpu < &gpus[MAX_GPUS] && gpu->index < gpu_count;
}

/* Checks the handle; returns NVML_SUCCESS or the code the call must return. */
static nvmlReturn_t check(nvmlDevice_t gpu) {
  if (!initialized) {
    return NVML_ERROR_UNINITIALIZED;
  }
  if (!valid(gpu)) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  const char *lost = text(gpu, "lost");
  if (lost != NULL && atoi(lost) != 0) {
    return NVML_ERROR_GPU_IS_LOST;
  }
  return NVML_SUCCESS;
}

static nvmlReturn_t read_ull(nvmlDevice_t gpu, const char *key, unsigned long long *out) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = check(gpu);
  if (rc == NVML_SUCCESS) {
    const char *value = out == NULL ? NULL : text(gpu, key);
    if (out == NULL) {
      rc = NVML_ERROR_INVALID_ARGUMENT;
    } else if (value == NULL) {
      rc = NVML_ERROR_NOT_SUPPORTED;
    } else {
      *out = strtoull(value, NULL, 10);
    }
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

static nvmlReturn_t read_uint(nvmlDevice_t gpu, const char *key, unsigned int *out) {
  unsigned long long value;
  nvmlReturn_t rc = read_ull(gpu, key, &value);
  if (rc == NVML_SUCCESS) {
    if (out == NULL) {
      return NVML_ERROR_INVALID_ARGUMENT;
    }
    *out = (unsigned int)value;
  }
  return rc;
}

static nvmlReturn_t read_text(nvmlDevice_t gpu, const char *key, char *out, unsigned int length) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = check(gpu);
  if (rc == NVML_SUCCESS) {
    const char *value = text(gpu, key);
    if (out == NULL || length == 0) {
      rc = NVML_ERROR_INVALID_ARGUMENT;
    } else if (value == NULL) {
      rc = NVML_ERROR_NOT_SUPPORTED;
    } else if (strlen(value) + 1 > length) {
      rc = NVML_ERROR_INSUFFICIENT_SIZE;
    } else {
      snprintf(out, length, "%s", value);
    }
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

nvmlReturn_t nvmlInit_v2(void) {
  pthread_mutex_lock(&lock);
  reload();
  nvmlReturn_t rc = init_code;
  if (rc == NVML_SUCCESS) {
    initialized = 1;
    xid_delivered = 0;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

nvmlReturn_t nvmlShutdown(void) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = initialized ? NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
  initialized = 0;
  for (int i = 0; i < MAX_GPUS; i++) {
    gpus[i].xid_registered = 0;
  }
  event_set.created = 0;
  pthread_mutex_unlock(&lock);
  return rc;
}

const char *nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS:
      return "Success";
    case NVML_ERROR_UNINITIALIZED:
      return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
      return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case 9:
      return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT:
      return "Timeout";
    case NVML_ERROR_GPU_IS_LOST:
      return "GPU is lost";
    default:
      return "Unknown Error";
  }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = initialized ? NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
  if (rc == NVML_SUCCESS) {
    if (version == NULL || strlen(driver) + 1 > length) {
      rc = NVML_ERROR_INSUFFICIENT_SIZE;
    } else {
      snprintf(version, length, "%s", driver);
    }
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = initialized ? NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
  if (rc == NVML_SUCCESS) {
    int registered[MAX_GPUS];
    for (int i = 0; i < MAX_GPUS; i++) {
      registered[i] = gpus[i].xid_registered;
    }
    reload();
    for (int i = 0; i < MAX_GPUS; i++) {
      gpus[i].xid_registered = registered[i];
    }
    if (count == NULL) {
      rc = NVML_ERROR_INVALID_ARGUMENT;
    } else {
      *count = (unsigned int)gpu_count;
    }
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = NVML_SUCCESS;
  if (!initialized) {
    rc = NVML_ERROR_UNINITIALIZED;
  } else if (device == NULL || index >= (unsigned int)gpu_count) {
    rc = NVML_ERROR_INVALID_ARGUMENT;
  } else {
    *device = &gpus[index];
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
  return read_text(device, "uuid", uuid, length);
}

nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t device, char *serial, unsigned int length) {
  return read_text(device, "serial", serial, length);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
  return read_text(device, "name", name, length);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
  if (pci == NULL) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  memset(pci, 0, sizeof *pci);
  nvmlReturn_t rc = read_text(device, "bus", pci->busId, sizeof pci->busId);
  if (rc == NVML_SUCCESS) {
    unsigned int domain = 0, bus = 0, dev = 0;
    sscanf(pci->busId, "%x:%x:%x", &domain, &bus, &dev);
    pci->domain = domain;
    pci->bus = bus;
    pci->device = dev;
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04x:%02x:%02x.0", domain, bus, dev);
  }
  return rc;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *temp) {
  return sensor == 0 ? read_uint(device, "temp", temp) : NVML_ERROR_INVALID_ARGUMENT;
}

nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t device, int type, unsigned int *temp) {
  switch (type) {
    case 0:
      return read_uint(device, "shutdown", temp);
    case 1:
      return read_uint(device, "slowdown", temp);
    default:
      return NVML_ERROR_NOT_SUPPORTED;
  }
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int count, nvmlFieldValue_t *values) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = check(device);
  pthread_mutex_unlock(&lock);
  if (rc != NVML_SUCCESS) {
    return rc;
  }
  if (values == NULL || count < 0) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  for (int i = 0; i < count; i++) {
    unsigned int temp;
    values[i].timestamp = (long long)time(NULL) * 1000000LL;
    values[i].latencyUsec = 0;
    if (values[i].fieldId == 82) {
      values[i].nvmlReturn = read_uint(device, "memtemp", &temp);
      values[i].valueType = 1;
      values[i].value.ullVal = 0;
      values[i].value.uiVal = temp;
    } else {
      values[i].nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
    }
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int *clock) {
  return type == 1   ? read_uint(device, "sm_clock", clock)
         : type == 2 ? read_uint(device, "mem_clock", clock)
                     : NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned int *clock) {
  return type == 1   ? read_uint(device, "max_sm_clock", clock)
         : type == 2 ? read_uint(device, "max_mem_clock", clock)
                     : NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
  return read_uint(device, "power_mw", power);
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device, unsigned int *limit) {
  return read_uint(device, "mgmt_limit_mw", limit);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit) {
  return read_uint(device, "enforced_limit_mw", limit);
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
  if (utilization == NULL) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  nvmlReturn_t rc = read_uint(device, "util_gpu", &utilization->gpu);
  return rc == NVML_SUCCESS ? read_uint(device, "util_mem", &utilization->memory) : rc;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
                                                    unsigned long long *reasons) {
  unsigned long long older;
  if (read_ull(device, "no_event_reasons", &older) == NVML_SUCCESS && older != 0) {
    return NVML_ERROR_FUNCTION_NOT_FOUND;
  }
  return read_ull(device, "clock_reasons", reasons);
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device,
                                                       unsigned long long *reasons) {
  return read_ull(device, "clock_reasons", reasons);
}

nvmlReturn_t nvmlDeviceGetViolationStatus(nvmlDevice_t device, int policy,
                                          nvmlViolationTime_t *violation) {
  if (violation == NULL) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  violation->referenceTime = (unsigned long long)time(NULL) * 1000000ULL;
  return policy == 0   ? read_ull(device, "violation_power_ns", &violation->violationTime)
         : policy == 1 ? read_ull(device, "violation_thermal_ns", &violation->violationTime)
                       : NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, int errorType, int counterType,
                                         unsigned long long *count) {
  static const char *keys[2][2] = {{"ecc_sbe_vol", "ecc_sbe_agg"}, {"ecc_dbe_vol", "ecc_dbe_agg"}};
  if (errorType < 0 || errorType > 1 || counterType < 0 || counterType > 1) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  return read_ull(device, keys[errorType][counterType], count);
}

nvmlReturn_t nvmlDeviceGetRetiredPages_v2(nvmlDevice_t device, int cause, unsigned int *pageCount,
                                          unsigned long long *addresses,
                                          unsigned long long *timestamps) {
  unsigned int pages;
  if (pageCount == NULL || cause < 0 || cause > 1) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  nvmlReturn_t rc = read_uint(device, cause == 0 ? "retired_sbe" : "retired_dbe", &pages);
  if (rc != NVML_SUCCESS) {
    return rc;
  }
  unsigned int room = *pageCount;
  *pageCount = pages;
  if (room < pages) {
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  for (unsigned int p = 0; p < pages; p++) {
    if (addresses != NULL) {
      addresses[p] = 0x1000ULL * (p + 1);
    }
    if (timestamps != NULL) {
      timestamps[p] = 0;
    }
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, int *isPending) {
  return read_uint(device, "retired_pending", (unsigned int *)isPending);
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned int *corrRows,
                                       unsigned int *uncRows, unsigned int *isPending,
                                       unsigned int *failureOccurred) {
  nvmlReturn_t rc = read_uint(device, "remap_corr", corrRows);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "remap_unc", uncRows);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "remap_pending", isPending);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "remap_failure", failureOccurred);
  return rc;
}

nvmlReturn_t nvmlDeviceGetRowRemapperHistogram(nvmlDevice_t device,
                                               nvmlRowRemapperHistogramValues_t *values) {
  if (values == NULL) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  nvmlReturn_t rc = read_uint(device, "hist_max", &values->max);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "hist_high", &values->high);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "hist_partial", &values->partial);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "hist_low", &values->low);
  if (rc == NVML_SUCCESS) rc = read_uint(device, "hist_none", &values->none);
  return rc;
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *gen) {
  return read_uint(device, "pcie_gen", gen);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *width) {
  return read_uint(device, "pcie_width", width);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *gen) {
  return read_uint(device, "pcie_max_gen", gen);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *width) {
  return read_uint(device, "pcie_max_width", width);
}

nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device, unsigned int *value) {
  return read_uint(device, "pcie_replay", value);
}

nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t device, unsigned int link, int counter,
                                             unsigned long long *value) {
  static const char *keys[4] = {"nvlink_replay", "nvlink_recovery", "nvlink_crc_flit",
                                "nvlink_crc_data"};
  unsigned int links;
  if (link >= NVML_NVLINK_MAX_LINKS || counter < 0 || counter > 3) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  nvmlReturn_t rc = read_uint(device, "nvlinks", &links);
  if (rc != NVML_SUCCESS) {
    return rc;
  }
  return link < links ? read_ull(device, keys[counter], value) : NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = initialized ? NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
  if (rc == NVML_SUCCESS) {
    event_set.created = 1;
    *set = &event_set;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes,
                                      nvmlEventSet_t set) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = check(device);
  if (rc == NVML_SUCCESS && (set != &event_set || eventTypes != 0x8ULL)) {
    rc = NVML_ERROR_INVALID_ARGUMENT;
  }
  if (rc == NVML_SUCCESS && text(device, "xid_unsupported") != NULL) {
    rc = NVML_ERROR_NOT_SUPPORTED;
  }
  if (rc == NVML_SUCCESS) {
    device->xid_registered = 1;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

/* Delivers the next queued XID of a registered GPU, if any. Called with the lock held. */
static int next_xid(nvmlEventData_t *data) {
  while (xid_delivered < xid_count) {
    int gpu = xid_gpu[xid_delivered];
    int code = xid_code[xid_delivered];
    xid_delivered++;
    if (gpu >= 0 && gpu < gpu_count && gpus[gpu].xid_registered) {
      data->device = &gpus[gpu];
      data->eventType = 0x8ULL;
      data->eventData = (unsigned long long)code;
      data->gpuInstanceId = 0xFFFFFFFFu;
      data->computeInstanceId = 0xFFFFFFFFu;
      return 1;
    }
  }
  return 0;
}

nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms) {
  if (set != &event_set || data == NULL) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  struct timespec step = {0, 20 * 1000 * 1000};
  unsigned int waited = 0;
  for (;;) {
    pthread_mutex_lock(&lock);
    if (!initialized || !event_set.created) {
      pthread_mutex_unlock(&lock);
      return NVML_ERROR_UNINITIALIZED;
    }
    int registered[MAX_GPUS];
    for (int i = 0; i < MAX_GPUS; i++) {
      registered[i] = gpus[i].xid_registered;
    }
    reload();
    for (int i = 0; i < MAX_GPUS; i++) {
      gpus[i].xid_registered = registered[i];
    }
    int found = next_xid(data);
    pthread_mutex_unlock(&lock);
    if (found) {
      return NVML_SUCCESS;
    }
    if (waited >= timeoutms) {
      return NVML_ERROR_TIMEOUT;
    }
    nanosleep(&step, NULL);
    waited += 20;
  }
}

nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  pthread_mutex_lock(&lock);
  nvmlReturn_t rc = set == &event_set ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
  if (rc == NVML_SUCCESS) {
    event_set.created = 0;
  }
  pthread_mutex_unlock(&lock);
  return rc;
}
