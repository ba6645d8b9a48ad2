package io.bulwark.api.bmc;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The hardware a BMC reports for its system: processors (CPUs and GPUs), memory modules, PCIe
 * devices, drives, network ports with their MAC addresses, and firmware versions.
 *
 * @param components every part found, in the order the BMC lists them
 * @since 1.1
 */
public record BmcInventory(List<Component> components) {

  /** What kind of part a component is. */
  public enum Kind {
    CPU,
    GPU,
    MEMORY,
    PCIE,
    DRIVE,
    NIC,
    FIRMWARE
  }

  /**
   * One part.
   *
   * @param kind what it is
   * @param id its id at the BMC (e.g. "CPU1", "DIMM-A3")
   * @param name its name as the BMC gives it, or ""
   * @param manufacturer its manufacturer, or ""
   * @param model its model, or ""
   * @param serial its serial number, or ""
   * @param details further properties by name (e.g. "mac", "version", "capacityMiB", "cores",
   *     "health"), values as the BMC gives them
   */
  public record Component(
      Kind kind,
      String id,
      String name,
      String manufacturer,
      String model,
      String serial,
      Map<String, String> details) {
    /** Requires kind and id; replaces other nulls with "" or an empty map. */
    public Component {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(id, "id");
      name = Objects.requireNonNullElse(name, "");
      manufacturer = Objects.requireNonNullElse(manufacturer, "");
      model = Objects.requireNonNullElse(model, "");
      serial = Objects.requireNonNullElse(serial, "");
      details = details == null ? Map.of() : Map.copyOf(details);
    }
  }

  /** Copies the list. */
  public BmcInventory {
    components = List.copyOf(components);
  }

  /** Returns the components of {@code kind}, in order. */
  public List<Component> of(Kind kind) {
    return components.stream().filter(c -> c.kind() == kind).toList();
  }
}
