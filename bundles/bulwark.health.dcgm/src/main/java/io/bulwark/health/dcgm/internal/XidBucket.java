package io.bulwark.health.dcgm.internal;

/**
 * NVIDIA's immediate action for an XID, as its XID catalogue buckets them ({@code
 * xid-catalog.csv}), and what Bulwark makes of each: the restart and reset buckets and the reset
 * workflows are critical (the GPU does not serve until then); the buckets after which the GPU still
 * serves but needs a person are warnings; the application's buckets raise no finding on the GPU;
 * IGNORE raises nothing. Used by the XID catalogue and detector.
 */
enum XidBucket {
  RESTART_BM(XidResolution.REBOOT_NODE, "restart the machine"),
  RESTART_VM(XidResolution.REBOOT_NODE, "restart the virtual machine"),
  RESET_GPU(XidResolution.RESET_GPU, "reset the GPU"),
  WORKFLOW_NVLINK5_ERR(XidResolution.RESET_GPU, "NVLink 5 error workflow: check the links, reset"),
  WORKFLOW_NVLINK_ERR(XidResolution.RESET_GPU, "NVLink error workflow: check the links, reset"),
  WORKFLOW_XID_48(XidResolution.RESET_GPU, "double-bit ECC workflow: reset, check row remapping"),
  UNEXPECTED_ERR_REPORT_ISSUE(XidResolution.SERVICE, "unexpected error: report it to NVIDIA"),
  UPDATE_SWFW(XidResolution.SERVICE, "update the driver or firmware"),
  CHECK_MECHANICALS(XidResolution.SERVICE, "check power, cooling and seating"),
  CHECK_UVM(XidResolution.SERVICE, "check the unified memory (UVM) driver"),
  FOLLOW_OTHER_XID(XidResolution.SERVICE, "follow the guidance of the XID it accompanies"),
  RESTART_APP(XidResolution.APPLICATION, "restart the application"),
  WORKFLOW_XID_45(XidResolution.APPLICATION, "preemptive cleanup after an earlier error"),
  IGNORE(XidResolution.IGNORED, "no action");

  private final XidResolution resolution;
  private final String words;

  XidBucket(XidResolution resolution, String words) {
    this.resolution = resolution;
    this.words = words;
  }

  /** What Bulwark makes of the bucket. */
  XidResolution resolution() {
    return resolution;
  }

  /** NVIDIA's action in an operator's words. */
  String words() {
    return words;
  }
}
