package io.bulwark.updates.internal;

import io.bulwark.lib.pki.Pem;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The trusted update-signing public keys: {@code NAME.ecdsa.pem} (ECDSA P-384) and {@code
 * NAME.lms.pem} (HSS/LMS, NIST SP 800-208) in the trust folders, each a PEM {@code PUBLIC KEY}
 * (SubjectPublicKeyInfo). A key's id is the first 16 bytes of the SHA-256 of that encoding, in hex;
 * a package can revoke keys by id, and a revoked key trusts nothing.
 */
final class UpdateKeys {
  /** The two kinds of update signature: both are needed. */
  enum Kind {
    ECDSA("ecdsa", "EC"),
    LMS("lms", "LMS");

    final String suffix;
    final String keyAlgorithm;

    Kind(String suffix, String keyAlgorithm) {
      this.suffix = suffix;
      this.keyAlgorithm = keyAlgorithm;
    }
  }

  /** One trusted key. */
  record Key(String name, Kind kind, String id, PublicKey key) {}

  private final List<Key> keys;

  UpdateKeys(List<Key> keys) {
    this.keys = List.copyOf(keys);
  }

  List<Key> keys() {
    return keys;
  }

  /** Returns the keys of {@code kind} that are not revoked. */
  List<Key> trusted(Kind kind, Set<String> revoked) {
    return keys.stream().filter(k -> k.kind() == kind && !revoked.contains(k.id())).toList();
  }

  /**
   * Reads the keys of the folders (those missing are skipped).
   *
   * @throws IllegalArgumentException naming a file that is not a key of its kind
   */
  static UpdateKeys load(List<Path> folders) throws IOException {
    List<Key> keys = new ArrayList<>();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        continue;
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.pem")) {
        for (Path f : files) {
          String file = f.getFileName().toString();
          for (Kind kind : Kind.values()) {
            String suffix = "." + kind.suffix + ".pem";
            if (file.endsWith(suffix) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
              keys.add(read(file.substring(0, file.length() - suffix.length()), kind, f));
            }
          }
        }
      }
    }
    keys.sort(java.util.Comparator.comparing(Key::name).thenComparing(Key::kind));
    return new UpdateKeys(keys);
  }

  private static Key read(String name, Kind kind, Path file) throws IOException {
    List<byte[]> der = Pem.decode("PUBLIC KEY", Files.readString(file));
    if (der.size() != 1) {
      throw new IllegalArgumentException(file + " holds no single PEM PUBLIC KEY");
    }
    try {
      PublicKey key =
          KeyFactory.getInstance(kind.keyAlgorithm, "BCFIPS")
              .generatePublic(new X509EncodedKeySpec(der.get(0)));
      if (kind == Kind.ECDSA && !io.bulwark.lib.pki.EcKeys.isP384(key)) {
        throw new IllegalArgumentException(file + " is not a P-384 key");
      }
      return new Key(name, kind, id(der.get(0)), key);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          file + " is not a " + kind.name() + " public key: " + e.getMessage());
    }
  }

  /** A key's id: the first 16 bytes of the SHA-256 of its SubjectPublicKeyInfo, in hex. */
  static String id(byte[] spki) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(spki), 0, 16);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no SHA-256 in the crypto module", e);
    }
  }
}
