package io.bulwark.health.dcgm.internal;

/**
 * The recommended action for an XID on one GPU, in an operator's words, following the bucket
 * NVIDIA's XID catalogue gives it, with the commands to confirm and to recover. Used by the XID
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
      case SERVICE -> service(node, i, code);
      case APPLICATION ->
          "No action on the GPU: XID "
              + code
              + " points at the job that ran on GPU "
              + i
              + " of "
              + node
              + "; tell its owner to check the job's log";
      case IGNORED -> "No action: NVIDIA's XID catalogue lists XID " + code + " as one to ignore";
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

  /** A GPU that keeps serving but needs a person, as the code's bucket says. */
  private static String service(String node, int i, int code) {
    XidBucket bucket =
        XidCatalog.entry(code)
            .map(XidCatalog.Entry::bucket)
            .orElse(XidBucket.UNEXPECTED_ERR_REPORT_ISSUE);
    String serving = "GPU " + i + " keeps serving: ";
    return switch (bucket) {
      case UPDATE_SWFW ->
          serving
              + "update the NVIDIA driver and the GPU's firmware on "
              + node
              + " at its next drain (nvidia-smi -q -i "
              + i
              + " shows the versions); if XID "
              + code
              + " repeats after the update, collect nvidia-bug-report.sh and open a support case";
      case CHECK_MECHANICALS ->
          serving
              + "check the power, cooling and seating of GPU "
              + i
              + " of "
              + node
              + " (nvidia-smi -q -d POWER,TEMPERATURE -i "
              + i
              + ") and its BMC's event log; reseat it at the next drain if XID "
              + code
              + " repeats";
      case CHECK_UVM ->
          serving
              + "check the unified memory driver on "
              + node
              + " (lsmod | grep nvidia_uvm, dmesg | grep -i uvm) and the job that used it";
      case FOLLOW_OTHER_XID ->
          serving
              + "read the recovery action the driver asks for (nvidia-smi -q -i "
              + i
              + ", 'GPU Recovery Action') and follow the XID it accompanies on "
              + node;
      default ->
          serving
              + "collect nvidia-bug-report.sh on "
              + node
              + ", open a support case with NVIDIA for XID "
              + code
              + " and plan the GPU's service at the next drain";
    };
  }
}
