package io.bulwark.provisioning.internal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Checks and reads the inventory the boot environment writes (inventory.sh). */
final class Inventory {
  private Inventory() {}

  /**
   * @throws IllegalArgumentException if a field is missing or of the wrong type, or the reporting
   *     MAC is not among the machine's NICs
   */
  static void check(JsonObject inv, String mac) {
    try {
      JsonObject cpu = inv.getJsonObject("cpu");
      if (cpu == null || cpu.getInteger("count") == null || cpu.getInteger("count") < 1) {
        throw new IllegalArgumentException("the inventory has no CPU count");
      }
      if (inv.getLong("memoryBytes") == null || inv.getLong("memoryBytes") <= 0) {
        throw new IllegalArgumentException("the inventory has no memory size");
      }
      JsonArray nics = inv.getJsonArray("nics");
      JsonArray disks = inv.getJsonArray("disks");
      if (nics == null || disks == null || inv.getJsonArray("pci") == null) {
        throw new IllegalArgumentException("the inventory lacks its nics, disks or pci list");
      }
      if (!macs(inv, null).contains(mac)) {
        throw new IllegalArgumentException(
            "the inventory's NICs do not include " + mac + ", the MAC that booted");
      }
    } catch (ClassCastException e) {
      throw new IllegalArgumentException(
          "the inventory has a field of the wrong type: " + e.getMessage());
    }
  }

  /** Returns the NICs' MACs, {@code first} first when given. */
  static List<String> macs(JsonObject inv, String first) {
    List<String> macs = new ArrayList<>();
    if (first != null) {
      macs.add(first);
    }
    for (Object o : inv.getJsonArray("nics", new JsonArray())) {
      if (o instanceof JsonObject n) {
        String m = n.getString("mac", "").toLowerCase(Locale.ROOT);
        if (m.matches("([0-9a-f]{2}:){5}[0-9a-f]{2}") && !macs.contains(m)) {
          macs.add(m);
        }
      }
    }
    return macs;
  }

  static String summary(JsonObject inv) {
    long disks = 0;
    for (Object o : inv.getJsonArray("disks", new JsonArray())) {
      if (o instanceof JsonObject d) {
        disks += d.getLong("bytes", 0L);
      }
    }
    int gpus = inv.getInteger("nvidiaGpus", 0);
    return count(inv.getJsonObject("cpu").getInteger("count"), "CPU")
        + ", "
        + bytes(inv.getLong("memoryBytes"))
        + " memory, "
        + count(inv.getJsonArray("disks").size(), "disk")
        + " ("
        + bytes(disks)
        + "), "
        + count(inv.getJsonArray("nics").size(), "NIC")
        + ", "
        + (gpus == 0 ? "no NVIDIA GPU" : count(gpus, "NVIDIA GPU"));
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  static String bytes(long b) {
    if (b >= 1L << 40) {
      return String.format(Locale.ROOT, "%.1f TiB", b / (double) (1L << 40));
    }
    if (b >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
    }
    return (b >> 20) + " MiB";
  }
}
