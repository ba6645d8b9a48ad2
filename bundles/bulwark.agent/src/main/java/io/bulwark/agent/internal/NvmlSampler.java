package io.bulwark.agent.internal;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the node's GPUs through NVML, one {@link NodeReading} per call to {@link #sample()}. Loads
 * the library and initialises NVML on first use and again after a failure, so an agent started
 * before the driver recovers by itself; a missing library or a failing driver gives a "down"
 * reading and one WARNING that says what to do, never an exception. Starts the {@link XidWatcher}
 * once NVML is up. Thread-safe: samples are taken one at a time.
 */
final class NvmlSampler implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(NvmlSampler.class.getName());
  static final int XID_WAIT_MILLIS = 500;

  private final String library;
  private final CallProblems problems = new CallProblems();
  private final LostGpus lostGpus = new LostGpus();
  private NvmlLibrary nvml;
  private GpuReader reader;
  private boolean initialized;
  private String driverVersion = "";
  private XidWatcher xids;
  private String lastProblem;

  /**
   * @param library the NVML library file name (searched on jna.library.path and the system library
   *     path) or an absolute path
   */
  NvmlSampler(String library) {
    this.library = library;
  }

  /** Reads every GPU once; never throws for an NVML failure. */
  synchronized NodeReading sample() {
    String problem = prepare();
    if (problem != null) {
      return down(problem);
    }
    IntByReference count = new IntByReference();
    int code = nvml.nvmlDeviceGetCount_v2(count);
    if (code != NvmlReturn.SUCCESS) {
      if (code == NvmlReturn.UNINITIALIZED) {
        initialized = false;
      }
      return down("nvmlDeviceGetCount_v2 answered " + NvmlReturn.name(code));
    }
    if (lastProblem != null) {
      LOG.log(
          Level.INFO,
          "NVML is up again: {0} GPUs, driver {1}",
          count.getValue(),
          driverVersion.isEmpty() ? "version unknown" : driverVersion);
      lastProblem = null;
    }
    List<GpuReading> gpus = new ArrayList<>();
    Map<Integer, String> lostAt = new LinkedHashMap<>();
    Pointer[] devices = new Pointer[Math.max(0, count.getValue())];
    for (int i = 0; i < devices.length; i++) {
      PointerByReference handle = new PointerByReference();
      code = nvml.nvmlDeviceGetHandleByIndex_v2(i, handle);
      if (code == NvmlReturn.GPU_IS_LOST) {
        lostAt.put(i, "nvmlDeviceGetHandleByIndex_v2");
        continue;
      }
      if (code != NvmlReturn.SUCCESS) {
        problems.report(i, "nvmlDeviceGetHandleByIndex_v2", code);
        continue;
      }
      devices[i] = handle.getValue();
      try {
        GpuReading gpu = reader.read(i, devices[i]);
        gpus.add(gpu);
      } catch (GpuLostException e) {
        lostAt.put(i, e.function);
      }
    }
    if (xids == null) {
      xids = XidWatcher.start(nvml, devices, XID_WAIT_MILLIS);
    }
    if (xids != null) {
      for (GpuReading gpu : gpus) {
        int xid = xids.lastXid(gpu.index);
        if (xid >= 0) {
          gpu.set(AgentMetric.XID_ERRORS, xid);
        }
      }
    }
    return new NodeReading(true, "", driverVersion, gpus, lostGpus.update(gpus, lostAt));
  }

  /** Loads and initialises NVML if needed; returns null when ready, else the problem. */
  private String prepare() {
    if (nvml == null) {
      try {
        nvml = Native.load(library, NvmlLibrary.class);
        reader = new GpuReader(nvml, problems);
      } catch (LinkageError e) {
        return "cannot load "
            + library
            + " ("
            + firstLine(e.getMessage())
            + "): install the NVIDIA driver on this node, or set the agent's library to the path"
            + " of libnvidia-ml.so.1";
      }
    }
    if (!initialized) {
      if (xids != null) {
        xids.stop();
        xids = null;
      }
      int code = nvml.nvmlInit_v2();
      if (code != NvmlReturn.SUCCESS) {
        return "nvmlInit_v2 answered "
            + NvmlReturn.name(code)
            + ": check that the NVIDIA kernel module is loaded (nvidia-smi) and that the driver"
            + " and libnvidia-ml.so.1 are the same version";
      }
      initialized = true;
      byte[] version = new byte[NvmlLibrary.NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
      code = nvml.nvmlSystemGetDriverVersion(version, version.length);
      driverVersion = code == NvmlReturn.SUCCESS ? Native.toString(version) : "";
    }
    return null;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "no reason given";
    }
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  private NodeReading down(String problem) {
    if (!problem.equals(lastProblem)) {
      LOG.log(
          Level.WARNING,
          "The node agent cannot read the GPUs: {0}. /metrics serves bulwark_nvml_up 0 and no GPU"
              + " readings until NVML answers",
          problem);
      lastProblem = problem;
    }
    return NodeReading.down(problem, List.of());
  }

  /** Stops the XID watcher and shuts NVML down. */
  @Override
  public synchronized void close() {
    if (xids != null) {
      xids.stop();
      xids = null;
    }
    if (initialized) {
      int code = nvml.nvmlShutdown();
      if (code != NvmlReturn.SUCCESS) {
        LOG.log(Level.DEBUG, "nvmlShutdown answered {0}", NvmlReturn.name(code));
      }
      initialized = false;
    }
  }
}
