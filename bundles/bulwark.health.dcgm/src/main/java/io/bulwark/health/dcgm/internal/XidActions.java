package io.bulwark.health.dcgm.internal;

/**
 * The recommended action for an XID on one GPU, in an operator's words, following the resolution
 * NVIDIA's XID catalog gives it, with the commands to confirm and to recover. Used by the XID
 * detector.
 */
final class XidActions {
  private XidActions() {}

  static String of(ObservedGpu gpu, int code, XidResolution resolution) {
    String node = gpu.node().value();
    int i = gpu.index();
    String diag = "run the DCGM diagnostic (dcgmi diag -r 3 -i " + i + ")";
    String repeats = "if XID " + code + " repeats on GPU " + i + ", reseat or RMA it";
    return switch (resolution) {
      case REBOOT_NODE ->
          code == 79
              ? "Drain "
                  + node
                  + " and power-cycle it (a reboot is not enough); if GPU "
                  + i
                  + " is still missing from nvidia-smi, reseat or RMA it"
              : "Drain " + node + " and reboot it, then " + diag + "; " + repeats;
      case RESET_GPU ->
          switch (code) {
            case 74, 144, 145, 146, 147, 148, 149, 150 ->
                "Drain "
                    + node
                    + ", check the NVLinks of GPU "
                    + i
                    + " (nvidia-smi nvlink -s -i "
                    + i
                    + ") and the fabric manager log, reset the GPU, then "
                    + diag
                    + "; "
                    + repeats;
            case 154 ->
                "Drain "
                    + node
                    + " and read the recovery action the driver asks for (nvidia-smi -q -i "
                    + i
                    + ", 'GPU Recovery Action'): reset GPU "
                    + i
                    + " or reboot the node as it says, then "
                    + diag;
            default ->
                "Drain "
                    + node
                    + ", reset GPU "
                    + i
                    + " (nvidia-smi -r -i "
                    + i
                    + "; reboot the node if the reset fails), then "
                    + diag
                    + "; "
                    + repeats;
          };
      case SERVICE ->
          "GPU "
              + i
              + " keeps serving: collect nvidia-bug-report.sh on "
              + node
              + ", open a support case for XID "
              + code
              + " and plan the GPU's service at the next drain";
      case RESET_AT_DRAIN ->
          "GPU "
              + i
              + " keeps serving: at the next drain of "
              + node
              + " reset it (nvidia-smi -r -i "
              + i
              + ") and "
              + diag
              + "; if XID "
              + code
              + " keeps coming back, plan its replacement";
      case RESTART_APP ->
          "Restart the job that ran on GPU "
              + i
              + " of "
              + node
              + "; if XID "
              + code
              + " recurs on this GPU with other jobs, drain "
              + node
              + ", reset GPU "
              + i
              + " and "
              + diag;
      case APPLICATION ->
          "No action on the GPU: XID "
              + code
              + " points at the job that ran on GPU "
              + i
              + " of "
              + node
              + "; tell its owner to check the job's log";
      case UNKNOWN ->
          "Look up XID "
              + code
              + " in NVIDIA's XID catalog and check the kernel log on "
              + node
              + " (dmesg | grep -i xid); if it repeats, drain "
              + node
              + " and run dcgmi diag -r 3";
    };
  }
}
