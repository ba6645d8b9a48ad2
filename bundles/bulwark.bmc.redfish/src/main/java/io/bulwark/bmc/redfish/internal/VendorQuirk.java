package io.bulwark.bmc.redfish.internal;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;

/**
 * What one BMC vendor does differently from DSP0266/DSP0268, as data: the table {@link #TABLE} is
 * the single place the Redfish driver looks for vendor differences, and {@link RedfishConnection}
 * applies the entry that matches the BMC ({@link #of}). A BMC that matches no entry gets {@link
 * #STANDARD}, which changes nothing. Each entry names the public document it rests on; an entry
 * without one does not belong here.
 *
 * @param vendor the vendor as the service root's {@code Vendor} names it (also matched against the
 *     root's single {@code Oem} key and the start of the system's {@code Manufacturer}, ignoring
 *     case)
 * @param cycleAction where, inside the system resource, an OEM action that power-cycles the system
 *     sits ("/"-separated JSON keys), used where {@code #ComputerSystem.Reset} lists no {@code
 *     PowerCycle}; "" for none
 * @param cycleResetType the {@code ResetType} to POST to {@code cycleAction}'s target
 * @param bootNeedsMode whether a PATCH of {@code Boot} must carry {@code BootSourceOverrideMode}
 *     (the current one, or {@code UEFI} where the BMC shows none)
 * @param skipFirmwarePrefixes firmware inventory ids that start with one of these are not firmware
 *     that runs (e.g. images kept for a rollback) and are left out of the inventory
 * @param source the public documentation the entry rests on
 */
record VendorQuirk(
    String vendor,
    String cycleAction,
    String cycleResetType,
    boolean bootNeedsMode,
    List<String> skipFirmwarePrefixes,
    String source) {

  /** The standard behaviour: no quirk at all. */
  static final VendorQuirk STANDARD = new VendorQuirk("", "", "", false, List.of(), "DSP0266");

  /** The vendor differences the driver knows, one entry per vendor. */
  static final List<VendorQuirk> TABLE =
      List.of(
          // HPE iLO 5/6: #ComputerSystem.Reset offers no PowerCycle; a cold boot (off, then on) is
          // the OEM action #HpeComputerSystemExt.SystemReset with ResetType ColdBoot (AuxCycle also
          // removes auxiliary power, which is more than a cycle), found under Oem.Hpe.Actions of
          // the
          // system.
          new VendorQuirk(
              "HPE",
              "Oem/Hpe/Actions/#HpeComputerSystemExt.SystemReset",
              "ColdBoot",
              false,
              List.of(),
              "HPE iLO Redfish ComputerSystem resource definitions, HpeComputerSystemExt.SystemReset"
                  + " (https://servermanagementportal.ext.hpe.com/docs/redfishservices/ilos/ilo6/"
                  + "ilo6_166/ilo6_computersystem_resourcedefns166); HPE python-ilorest-library"
                  + " examples POST {\"ResetType\":\"ColdBoot\"} to"
                  + " Systems/1/Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset"),
          // Dell iDRAC 9: the FirmwareInventory lists, next to the running "Installed-…" entries,
          // the N-1 images the iDRAC keeps for a rollback as "Previous-…" entries.
          new VendorQuirk(
              "Dell",
              "",
              "",
              false,
              List.of("Previous-"),
              "Dell iDRAC-Redfish-Scripting, Set-DeviceFirmwareRollbackREDFISH (rollback_uri: the"
                  + " PREVIOUS URI of the device; no N-1 image stored means no Previous entry),"
                  + " https://www.powershellgallery.com/packages/Set-DeviceFirmwareRollbackREDFISH"),
          // Supermicro X11/X12/X13 BMC: a boot override PATCH carries BootSourceOverrideMode with
          // the target and enabled state.
          new VendorQuirk(
              "Supermicro",
              "",
              "",
              true,
              List.of(),
              "NVIDIA libredfish src/supermicro.rs set_boot_override (sends"
                  + " BootSourceOverrideMode UEFI with every override; UefiHttp only appears once"
                  + " the mode is UEFI), https://github.com/NVIDIA/libredfish"),
          // AMI MegaRAC (the BMC of NVIDIA DGX H100): PATCH /Systems/{id} with If-Match, and the
          // override carries BootSourceOverrideMode (UEFI where none is given).
          new VendorQuirk(
              "AMI",
              "",
              "",
              true,
              List.of(),
              "NVIDIA libredfish src/ami.rs set_boot_override (\"AMI requires patching"
                  + " /Systems/{id} with an If-Match header\", mode defaults to UEFI) and"
                  + " src/model/service_root.rs (Vendor \"AMI\" = DGX H100 BMC),"
                  + " https://github.com/NVIDIA/libredfish"));

  /**
   * Returns the entry for the BMC whose service root is {@code root} and whose system is {@code
   * system} (either may be null), or {@link #STANDARD}.
   */
  static VendorQuirk of(JsonObject root, JsonObject system) {
    for (String name : names(root, system)) {
      String n = name.strip().toLowerCase(Locale.ROOT);
      if (n.isEmpty()) {
        continue;
      }
      for (VendorQuirk q : TABLE) {
        if (n.startsWith(q.vendor().toLowerCase(Locale.ROOT))) {
          return q;
        }
      }
    }
    return STANDARD;
  }

  private static List<String> names(JsonObject root, JsonObject system) {
    String vendor = root == null ? "" : root.getString("Vendor", "");
    JsonObject oem = root == null ? null : root.getJsonObject("Oem");
    String oemKey = oem != null && oem.size() == 1 ? oem.fieldNames().iterator().next() : "";
    String manufacturer = system == null ? "" : system.getString("Manufacturer", "");
    return List.of(vendor, oemKey, manufacturer);
  }

  /** Returns whether the firmware inventory entry {@code id} is left out. */
  boolean skipsFirmware(String id) {
    return skipFirmwarePrefixes.stream().anyMatch(id::startsWith);
  }
}
