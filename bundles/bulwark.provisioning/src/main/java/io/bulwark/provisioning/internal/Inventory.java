package io.bulwark.provisioning.internal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks and reads the inventory the boot environment writes (inventory.sh). Whoever boots on the
 * provisioning network writes it, so it is bounded before anything of it is stored or audited: at
 * most {@value #MAX_BYTES} bytes of JSON, texts of at most {@value #MAX_TEXT} characters without
 * control or formatting characters, keys that are words, lists of at most {@value #MAX_ITEMS}
 * entries ({@value #MAX_NICS} NICs, {@value #MAX_DISKS} disks, {@value #MAX_PCI} PCI devices), and
 * no deeper than {@value #MAX_DEPTH} levels.
 */
final class Inventory {
  static final int MAX_BYTES = 256 * 1024;
  static final int MAX_TEXT = 256;
  static final int MAX_ITEMS = 1_024;
  static final int MAX_NICS = 128;
  static final int MAX_DISKS = 256;
  static final int MAX_PCI = 2_048;
  static final int MAX_DEPTH = 3;

  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern UNPRINTABLE = Pattern.compile("[\\p{Cc}\\p{Cf}]");

  private Inventory() {}

  /**
   * @throws IllegalArgumentException if the inventory is out of bounds (the message names where,
   *     never quotes what was sent), a field is missing or of the wrong type, or the reporting MAC
   *     is not among the machine's NICs
   */
  static void check(JsonObject inv, String mac) {
    int bytes = inv.encode().length();
    if (bytes > MAX_BYTES) {
      throw new IllegalArgumentException(
          "the inventory is " + bytes + " bytes of JSON; at most " + MAX_BYTES + " are taken");
    }
    bounded(inv, "", 0);
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

  private static void bounded(Object value, String path, int depth) {
    if (value instanceof JsonObject o) {
      nested(path, depth);
      for (Map.Entry<String, Object> e : o) {
        if (!KEY.matcher(e.getKey()).matches()) {
          throw new IllegalArgumentException(
              "the inventory has a key that is not a word of at most 64 letters, digits, '_', '.'"
                  + " or '-' in "
                  + (path.isEmpty() ? "its top level" : path));
        }
        bounded(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), depth + 1);
      }
    } else if (value instanceof JsonArray a) {
      nested(path, depth);
      int max =
          switch (path) {
            case "nics" -> MAX_NICS;
            case "disks" -> MAX_DISKS;
            case "pci" -> MAX_PCI;
            default -> MAX_ITEMS;
          };
      if (a.size() > max) {
        throw new IllegalArgumentException(
            "the inventory's "
                + path
                + " has "
                + a.size()
                + " entries; at most "
                + max
                + " are taken");
      }
      for (int i = 0; i < a.size(); i++) {
        bounded(a.getValue(i), path + "[" + i + "]", depth + 1);
      }
    } else if (value instanceof String s) {
      if (s.length() > MAX_TEXT) {
        throw new IllegalArgumentException(
            "the inventory's "
                + path
                + " is "
                + s.length()
                + " characters long; at most "
                + MAX_TEXT
                + " are taken");
      }
      if (UNPRINTABLE.matcher(s).find()) {
        throw new IllegalArgumentException(
            "the inventory's " + path + " holds a control or formatting character");
      }
    }
  }

  private static void nested(String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "the inventory nests deeper than " + MAX_DEPTH + " levels at " + path);
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
