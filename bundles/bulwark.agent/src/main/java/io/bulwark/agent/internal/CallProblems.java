package io.bulwark.agent.internal;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reports NVML calls that fail with an unexpected code (not "not supported", not "GPU lost"): the
 * first failure of each call, GPU and code is logged as a WARNING with what to check, later ones
 * only at DEBUG, so a persistent failure does not flood the log. The reading is left out of the
 * page either way.
 */
final class CallProblems {
  private static final System.Logger LOG = System.getLogger(CallProblems.class.getName());
  private static final int MAX_REMEMBERED = 1024;

  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /** Records that {@code function} failed with {@code code} on GPU {@code gpu}. */
  void report(int gpu, String function, int code) {
    if (reported.size() < MAX_REMEMBERED && reported.add(gpu + "/" + function + "/" + code)) {
      LOG.log(
          Level.WARNING,
          "NVML {0} failed on GPU {1} with {2}: that reading is left out of /metrics; check the"
              + " NVIDIA driver (nvidia-smi -q -i {1}) and that the agent may read the GPU",
          function,
          gpu,
          NvmlReturn.name(code));
    } else {
      LOG.log(
          Level.DEBUG, "NVML {0} failed on GPU {1} with {2}", function, gpu, NvmlReturn.name(code));
    }
  }
}
