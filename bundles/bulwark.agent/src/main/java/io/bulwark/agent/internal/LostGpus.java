package io.bulwark.agent.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Remembers every GPU the agent has read and works out, after each sample, which of them are lost:
 * those NVML answered {@code GPU_IS_LOST} for, and those it no longer enumerates. Logs a WARNING
 * naming the GPU and what to do when one is lost, and an INFO line when it answers again. Used by
 * the sampling thread only.
 */
final class LostGpus {
  private static final System.Logger LOG = System.getLogger(LostGpus.class.getName());

  private final Map<String, Integer> seen = new LinkedHashMap<>();
  private final Map<Integer, String> uuidAtIndex = new HashMap<>();
  private final Set<String> reported = new HashSet<>();

  /**
   * Returns the lost GPUs after a sample that read {@code read} and found the GPUs of {@code
   * lostAt} (index to the NVML call that answered GPU_IS_LOST) lost.
   */
  List<LostGpu> update(List<GpuReading> read, Map<Integer, String> lostAt) {
    Set<String> present = new HashSet<>();
    for (GpuReading gpu : read) {
      String key = key(gpu.index, gpu.uuid);
      present.add(key);
      if (!gpu.uuid.isEmpty()) {
        seen.put(gpu.uuid, gpu.index);
        uuidAtIndex.put(gpu.index, gpu.uuid);
      }
      if (reported.remove(key)) {
        LOG.log(
            Level.INFO,
            "GPU {0} ({1}) answers NVML again; its readings are back on /metrics",
            gpu.index,
            gpu.uuid);
      }
    }
    List<LostGpu> lost = new ArrayList<>();
    for (Map.Entry<Integer, String> entry : lostAt.entrySet()) {
      int index = entry.getKey();
      String uuid = uuidAtIndex.getOrDefault(index, "");
      lost.add(new LostGpu(index, uuid, "NVML answered GPU_IS_LOST to " + entry.getValue()));
      present.add(key(index, uuid));
    }
    for (Map.Entry<String, Integer> entry : seen.entrySet()) {
      String uuid = entry.getKey();
      if (!present.contains(uuid)) {
        lost.add(new LostGpu(entry.getValue(), uuid, "NVML no longer enumerates it"));
      }
    }
    for (LostGpu gpu : lost) {
      if (reported.add(key(gpu.index(), gpu.uuid()))) {
        LOG.log(
            Level.WARNING,
            "GPU {0} ({1}) is lost: {2}. It has likely fallen off the bus; its readings are left"
                + " out of /metrics and the appliance reports it missing. Check dmesg for XID 79"
                + " and nvidia-smi; reset the GPU or reboot the node, and have the GPU replaced if"
                + " it happens again",
            gpu.index(),
            gpu.uuid().isEmpty() ? "UUID unknown" : gpu.uuid(),
            gpu.reason());
      }
    }
    return lost;
  }

  private static String key(int index, String uuid) {
    return uuid.isEmpty() ? "#" + index : uuid;
  }
}
