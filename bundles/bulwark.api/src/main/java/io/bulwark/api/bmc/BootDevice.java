package io.bulwark.api.bmc;

/** Where a machine boots from next. */
public enum BootDevice {
  /** Network boot (PXE). */
  PXE,
  /** UEFI HTTP boot. */
  HTTP,
  /** The local disk. */
  DISK,
  /** The firmware setup screen. */
  BIOS_SETUP,
  /** No override: the machine's own boot order. */
  NONE
}
