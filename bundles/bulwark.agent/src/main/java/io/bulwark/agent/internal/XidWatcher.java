package io.bulwark.agent.internal;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Waits for XID critical-error events on a dedicated daemon thread ({@code nvmlEventSetWait_v2}
 * with a bounded timeout, so that {@link #stop()} ends it promptly) and keeps the last XID code of
 * each GPU for {@code DCGM_FI_DEV_XID_ERRORS}, as dcgm-exporter does. A GPU whose driver cannot
 * register XID events gets no XID reading.
 */
final class XidWatcher {
  private static final System.Logger LOG = System.getLogger(XidWatcher.class.getName());
  private static final int NOT_REGISTERED = -1;

  private final NvmlLibrary nvml;
  private final Pointer set;
  private final Pointer[] devices;
  private final AtomicIntegerArray lastXid;
  private final int waitMillis;
  private final Thread thread;
  private volatile boolean running = true;

  private XidWatcher(NvmlLibrary nvml, Pointer set, Pointer[] devices, int waitMillis) {
    this.nvml = nvml;
    this.set = set;
    this.devices = devices.clone();
    this.lastXid = new AtomicIntegerArray(devices.length);
    this.waitMillis = waitMillis;
    this.thread = new Thread(this::watch, "bulwark-nvml-xid");
    this.thread.setDaemon(true);
  }

  /**
   * Creates an event set, registers every GPU of {@code devices} (index = position; null for a GPU
   * that could not be opened) for XID events and starts waiting; returns null if NVML cannot create
   * an event set at all.
   */
  static XidWatcher start(NvmlLibrary nvml, Pointer[] devices, int waitMillis) {
    PointerByReference created = new PointerByReference();
    int code = nvml.nvmlEventSetCreate(created);
    if (code != NvmlReturn.SUCCESS) {
      LOG.log(
          Level.WARNING,
          "NVML cannot create an event set ({0}): XID errors are not reported on /metrics",
          NvmlReturn.name(code));
      return null;
    }
    XidWatcher watcher = new XidWatcher(nvml, created.getValue(), devices, waitMillis);
    for (int i = 0; i < devices.length; i++) {
      watcher.lastXid.set(i, NOT_REGISTERED);
      if (devices[i] == null) {
        continue;
      }
      code =
          nvml.nvmlDeviceRegisterEvents(
              devices[i], NvmlLibrary.NVML_EVENT_TYPE_XID_CRITICAL_ERROR, watcher.set);
      if (code == NvmlReturn.SUCCESS) {
        watcher.lastXid.set(i, 0);
      } else {
        LOG.log(
            Level.INFO,
            "GPU {0} does not deliver XID events ({1}): DCGM_FI_DEV_XID_ERRORS is left out for it",
            i,
            NvmlReturn.name(code));
      }
    }
    watcher.thread.start();
    return watcher;
  }

  /**
   * Returns the last XID code GPU {@code index} reported, 0 if none yet, or -1 if its XID events
   * are not watched.
   */
  int lastXid(int index) {
    return index >= 0 && index < lastXid.length() ? lastXid.get(index) : NOT_REGISTERED;
  }

  private void watch() {
    NvmlStructures.EventData data = new NvmlStructures.EventData();
    while (running) {
      int code = nvml.nvmlEventSetWait_v2(set, data, waitMillis);
      if (code == NvmlReturn.SUCCESS) {
        record(data);
      } else if (code == NvmlReturn.UNINITIALIZED) {
        return;
      } else if (code != NvmlReturn.TIMEOUT) {
        LOG.log(Level.DEBUG, "Waiting for XID events failed: {0}", NvmlReturn.name(code));
        pause();
      }
    }
  }

  private void record(NvmlStructures.EventData data) {
    if ((data.eventType & NvmlLibrary.NVML_EVENT_TYPE_XID_CRITICAL_ERROR) == 0) {
      return;
    }
    int xid = (int) data.eventData;
    for (int i = 0; i < devices.length; i++) {
      if (devices[i] != null && devices[i].equals(data.device)) {
        lastXid.set(i, xid);
        LOG.log(
            Level.WARNING,
            "GPU {0} reported XID {1}: see NVIDIA''s XID catalogue for the action; the appliance"
                + " sees it as DCGM_FI_DEV_XID_ERRORS",
            i,
            xid);
        return;
      }
    }
    LOG.log(Level.DEBUG, "XID {0} from a GPU this agent did not register", xid);
  }

  private void pause() {
    try {
      Thread.sleep(waitMillis);
    } catch (InterruptedException e) {
      running = false;
    }
  }

  /** Stops waiting (within about the wait timeout) and frees the event set. */
  void stop() {
    running = false;
    try {
      thread.join(waitMillis * 4L + 1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.log(
          Level.WARNING,
          "The XID event thread did not stop within {0} ms; the event set is left to nvmlShutdown",
          waitMillis * 4L + 1_000);
      return;
    }
    int code = nvml.nvmlEventSetFree(set);
    if (code != NvmlReturn.SUCCESS) {
      LOG.log(Level.DEBUG, "nvmlEventSetFree answered {0}", NvmlReturn.name(code));
    }
  }
}
