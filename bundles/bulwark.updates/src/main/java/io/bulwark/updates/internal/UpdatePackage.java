package io.bulwark.updates.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads an update package (a ZIP file: {@code manifest.json}, {@code manifest.json.ecdsa.p7s},
 * {@code manifest.json.lms.p7s} and the files the manifest lists) without trusting it: the two
 * signatures are checked before anything else is read, then every entry is streamed into the
 * staging folder while its SHA-384 is computed, never past the size the manifest gives it (an
 * archive bomb stops there), and an entry the manifest does not list, a path that would leave the
 * folder, a directory or link entry, a missing file or one whose digest differs refuses the whole
 * package, leaving the staging folder empty.
 */
final class UpdatePackage {
  static final String MANIFEST = "manifest.json";
  static final String ECDSA_SIGNATURE = "manifest.json.ecdsa.p7s";
  static final String LMS_SIGNATURE = "manifest.json.lms.p7s";

  /** A package that verified: its manifest, the keys that signed it, and where it was staged. */
  record Verified(UpdateManifest manifest, String ecdsaSigner, String lmsSigner, Path staged) {}

  private UpdatePackage() {}

  /**
   * Verifies the package and stages its files into {@code staging} (an empty folder).
   *
   * @param revoked the ids of keys revoked so far (by earlier packages)
   * @throws IllegalArgumentException saying why the package is refused
   * @throws IOException if the package or the staging folder cannot be read or written (a stick
   *     pulled out mid-read)
   */
  static Verified verify(Path file, UpdateKeys keys, Set<String> revoked, Path staging)
      throws IOException {
    try (ZipFile zip = open(file)) {
      byte[] manifestBytes = small(zip, MANIFEST, UpdateManifest.MAX_BYTES);
      if (manifestBytes == null) {
        throw new IllegalArgumentException("the package has no " + MANIFEST);
      }
      byte[] ecdsa = small(zip, ECDSA_SIGNATURE, ManifestSignatures.MAX_BYTES);
      byte[] lms = small(zip, LMS_SIGNATURE, ManifestSignatures.MAX_BYTES);
      String ecdsaSigner =
          ManifestSignatures.verify(manifestBytes, ecdsa, UpdateKeys.Kind.ECDSA, keys, revoked);
      String lmsSigner =
          ManifestSignatures.verify(manifestBytes, lms, UpdateKeys.Kind.LMS, keys, revoked);
      UpdateManifest manifest = UpdateManifest.parse(manifestBytes);
      try {
        stage(zip, manifest, staging);
      } catch (IOException | RuntimeException e) {
        clear(staging);
        throw e;
      }
      return new Verified(manifest, ecdsaSigner, lmsSigner, staging);
    }
  }

  private static ZipFile open(Path file) throws IOException {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException(file + " is not a plain file");
    }
    try {
      return new ZipFile(file.toFile());
    } catch (java.util.zip.ZipException e) {
      throw new IllegalArgumentException(
          file + " is not an update package (ZIP): " + e.getMessage());
    }
  }

  /** Reads a small entry whole, at most {@code max} bytes; null if there is none. */
  private static byte[] small(ZipFile zip, String name, int max) throws IOException {
    ZipEntry e = zip.getEntry(name);
    if (e == null) {
      return null;
    }
    try (InputStream in = zip.getInputStream(e)) {
      byte[] b = in.readNBytes(max + 1);
      if (b.length > max) {
        throw new IllegalArgumentException(name + " is over " + max + " bytes");
      }
      return b;
    }
  }

  private static void stage(ZipFile zip, UpdateManifest manifest, Path staging) throws IOException {
    Set<String> seen = new HashSet<>();
    Set<String> meta = Set.of(MANIFEST, ECDSA_SIGNATURE, LMS_SIGNATURE);
    Enumeration<? extends ZipEntry> entries = zip.entries();
    int count = 0;
    while (entries.hasMoreElements()) {
      ZipEntry e = entries.nextElement();
      if (++count > UpdateManifest.MAX_FILES + meta.size()) {
        throw new IllegalArgumentException(
            "the package holds more entries than its manifest lists");
      }
      String name = e.getName();
      if (meta.contains(name)) {
        continue;
      }
      String problem = PackagePath.problem(name);
      if (problem != null) {
        throw new IllegalArgumentException(
            "the package holds an entry it may not hold: " + problem);
      }
      if (e.isDirectory()) {
        throw new IllegalArgumentException("the package holds a folder entry '" + name + "'");
      }
      UpdateManifest.Entry listed = manifest.entry(name);
      if (listed == null) {
        throw new IllegalArgumentException(
            "the package holds '" + name + "', which its manifest does not list");
      }
      if (!seen.add(name)) {
        throw new IllegalArgumentException("the package holds '" + name + "' twice");
      }
      copy(zip, e, listed, staging.resolve(name));
    }
    for (UpdateManifest.Entry listed : manifest.files()) {
      if (!seen.contains(listed.path())) {
        throw new IllegalArgumentException(
            "the manifest lists '" + listed.path() + "', which the package does not hold");
      }
    }
  }

  private static void copy(ZipFile zip, ZipEntry e, UpdateManifest.Entry listed, Path target)
      throws IOException {
    Files.createDirectories(target.getParent());
    MessageDigest sha384;
    try {
      sha384 = MessageDigest.getInstance("SHA-384");
    } catch (GeneralSecurityException x) {
      throw new IllegalStateException("no SHA-384 in the crypto module", x);
    }
    long written = 0;
    byte[] buf = new byte[1 << 16];
    try (InputStream in = zip.getInputStream(e);
        OutputStream out =
            Files.newOutputStream(
                target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        written += n;
        if (written > listed.size()) {
          throw new IllegalArgumentException(
              "'"
                  + listed.path()
                  + "' is bigger than the "
                  + listed.size()
                  + " bytes its manifest gives it (an archive bomb, or a changed file)");
        }
        sha384.update(buf, 0, n);
        out.write(buf, 0, n);
      }
    }
    if (written != listed.size()) {
      throw new IllegalArgumentException(
          "'"
              + listed.path()
              + "' is "
              + written
              + " bytes, not the "
              + listed.size()
              + " of its manifest");
    }
    String digest = HexFormat.of().formatHex(sha384.digest());
    if (!digest.equals(listed.sha384())) {
      throw new IllegalArgumentException(
          "'" + listed.path() + "' does not match its SHA-384 in the manifest: it was changed");
    }
  }

  /** Empties the staging folder after a refusal. */
  static void clear(Path staging) throws IOException {
    if (!Files.isDirectory(staging)) {
      return;
    }
    try (var walk = Files.walk(staging)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        if (!p.equals(staging)) {
          Files.delete(p);
        }
      }
    }
  }
}
