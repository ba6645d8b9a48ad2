package io.bulwark.health.dcgm.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * NVIDIA's XID catalogue as Bulwark holds it: every code NVIDIA lists with its driver mnemonic,
 * NVIDIA's immediate-action bucket and fatal flag, read from {@code xid-catalog.csv} beside this
 * class (its source and date are in the file), and for the codes operators meet most their meaning
 * in Bulwark's words. A code not in the file is unknown: the operator looks it up in NVIDIA's
 * current catalogue. Used by the XID detector and its options.
 */
final class XidCatalog {
  /** The XIDs that point at the application by default: not findings on the GPU. */
  static final int[] APPLICATION_DEFAULTS = {13, 31, 43, 45};

  static final String RESOURCE = "xid-catalog.csv";

  private static final Map<Integer, Entry> ENTRIES = load();
  private static final Map<Integer, String> WORDS = words();

  /** One code of the catalogue. */
  record Entry(int code, String mnemonic, XidBucket bucket, boolean fatal) {}

  private XidCatalog() {}

  /** Every code of the catalogue, by code. */
  static Collection<Entry> entries() {
    return ENTRIES.values();
  }

  /** The catalogue's entry for {@code code}, if NVIDIA lists it. */
  static Optional<Entry> entry(int code) {
    return Optional.ofNullable(ENTRIES.get(code));
  }

  /** Returns the meaning of {@code code} in words, or a note that it is not in the catalogue. */
  static String meaning(int code) {
    String words = WORDS.get(code);
    Entry e = ENTRIES.get(code);
    if (e == null) {
      return "not in NVIDIA's XID catalogue as Bulwark holds it (codes 1 to "
          + highest()
          + "); look it up in NVIDIA's current XID catalogue";
    }
    if (words != null) {
      return words;
    }
    return e.mnemonic().isEmpty()
        ? "listed by NVIDIA without a name"
        : e.mnemonic().toLowerCase(Locale.ROOT).replace('_', ' ') + " (" + e.mnemonic() + ")";
  }

  /** Returns the resolution the catalogue's bucket gives {@code code}, or UNKNOWN. */
  static XidResolution resolution(int code) {
    Entry e = ENTRIES.get(code);
    return e == null ? XidResolution.UNKNOWN : e.bucket().resolution();
  }

  /** The highest code the catalogue lists. */
  static int highest() {
    return ENTRIES.isEmpty() ? 0 : Collections.max(ENTRIES.keySet());
  }

  /** Reads the catalogue; a line it cannot read stops the detector's class from loading. */
  private static Map<Integer, Entry> load() {
    try (InputStream in = XidCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the XID catalogue " + RESOURCE + " is missing");
      }
      return Collections.unmodifiableMap(
          parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))));
    } catch (IOException e) {
      throw new UncheckedIOException("the XID catalogue " + RESOURCE + " cannot be read", e);
    }
  }

  /**
   * Parses the catalogue's lines: comments ({@code #}), one header line, then {@code
   * code,mnemonic,bucket,FATAL|NONFATAL}.
   *
   * @throws IllegalStateException naming the line that is not one of these, or a code listed twice
   */
  static Map<Integer, Entry> parse(BufferedReader lines) throws IOException {
    Map<Integer, Entry> entries = new TreeMap<>();
    String line;
    int number = 0;
    boolean header = false;
    while ((line = lines.readLine()) != null) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      if (!header) {
        if (!line.equals("code,mnemonic,bucket,fatal")) {
          throw bad(number, line, "expected the header code,mnemonic,bucket,fatal");
        }
        header = true;
        continue;
      }
      String[] f = line.split(",", -1);
      if (f.length != 4) {
        throw bad(number, line, "expected 4 fields, found " + f.length);
      }
      int code;
      XidBucket bucket;
      try {
        code = Integer.parseInt(f[0]);
        bucket = XidBucket.valueOf(f[2]);
      } catch (IllegalArgumentException e) {
        throw bad(number, line, e.getMessage());
      }
      if (code < 1 || !(f[3].equals("FATAL") || f[3].equals("NONFATAL"))) {
        throw bad(number, line, "expected a positive code and FATAL or NONFATAL");
      }
      if (entries.put(code, new Entry(code, f[1].strip(), bucket, f[3].equals("FATAL"))) != null) {
        throw bad(number, line, "XID " + code + " is listed twice");
      }
    }
    return entries;
  }

  private static IllegalStateException bad(int number, String line, String why) {
    return new IllegalStateException(
        "XID catalogue " + RESOURCE + ", line " + number + " (" + line + "): " + why);
  }

  private static Map<Integer, String> words() {
    Map<Integer, String> w = new HashMap<>();
    w.put(8, "the GPU stopped processing a channel (timeout)");
    w.put(
        13,
        "graphics engine exception: out-of-range access or illegal instruction in the application");
    w.put(31, "GPU memory page fault: the application made an illegal memory access");
    w.put(32, "invalid or corrupted push buffer stream");
    w.put(38, "driver firmware error");
    w.put(43, "GPU stopped processing: the application hit a fault and was stopped");
    w.put(44, "graphics engine fault during a context switch");
    w.put(45, "preemptive cleanup: the application was ended after an earlier error");
    w.put(46, "GPU stopped processing (timeout)");
    w.put(48, "double-bit ECC error: uncorrectable memory error");
    w.put(61, "internal micro-controller breakpoint or warning");
    w.put(62, "internal micro-controller halt");
    w.put(63, "row remapping or page retirement recorded: applied at the next GPU reset");
    w.put(64, "row remapping or page retirement could not be recorded");
    w.put(68, "video decoder exception");
    w.put(69, "graphics engine class error");
    w.put(74, "NVLink error");
    w.put(79, "GPU has fallen off the bus");
    w.put(92, "high single-bit ECC error rate");
    w.put(93, "InfoROM wear limit exceeded");
    w.put(94, "contained ECC error: only the application using the bad memory was stopped");
    w.put(95, "uncontained ECC error: every application on the GPU was affected");
    w.put(109, "context switch timeout");
    w.put(110, "security fault");
    w.put(119, "GSP RPC timeout: the GPU system processor stopped answering");
    w.put(120, "GSP error: the GPU system processor reported an error");
    w.put(121, "corrected error on the chip-to-chip (C2C) link");
    w.put(122, "SPI PMU RPC read failure");
    w.put(123, "SPI PMU RPC write failure");
    w.put(124, "SPI PMU RPC erase failure");
    w.put(125, "InfoROM file-system failure");
    w.put(136, "link training failure");
    w.put(137, "NVLink FLA privilege error: an application reached memory it may not");
    w.put(140, "unrecovered ECC error");
    w.put(143, "GPU initialisation failure");
    for (int code = 144; code <= 150; code++) {
      w.put(code, "NVLink fabric error reported by a link unit");
    }
    w.put(151, "key rotation error (confidential computing)");
    w.put(154, "GPU recovery action changed: the driver asks for a GPU reset or a node reboot");
    w.put(155, "NVLink error defined by software");
    w.put(156, "resource retirement event");
    w.put(158, "GPU fatal timeout");
    w.put(160, "channel retirement event");
    return Collections.unmodifiableMap(w);
  }
}
