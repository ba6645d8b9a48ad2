package io.bulwark.provisioning.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The OS images machines are deployed with: raw disk images ({@code NAME.img}) in one folder, each
 * with a detached signature ({@code NAME.img.sig}: the DER ECDSA signature over SHA-384 that {@code
 * openssl dgst -sha384 -sign} writes) by one of the trusted P-384 public keys ({@code *.pem} in the
 * key folders: the release keys of {@code keys/} and any the site adds). Only an image whose
 * signature verifies is offered for deployment; its SHA-256 is what the boot environment checks the
 * bytes it writes against. Images arrive by the offline update path or an admin's copy, never from
 * a network. Results are kept per file size and time, so a changed file is checked again.
 */
final class ImageStore {
  static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

  /** One image as the store sees it. */
  record Image(
      String name,
      Path file,
      long size,
      String sha256,
      boolean trusted,
      String signer,
      String problem) {}

  private record Key(String name, PublicKey key) {}

  private record Checked(long size, long modified, Image image) {}

  private final Path folder;
  private final List<Path> keyFolders;
  private final Map<String, Checked> checked = new ConcurrentHashMap<>();

  ImageStore(Path folder, List<Path> keyFolders) {
    this.folder = folder;
    this.keyFolders = List.copyOf(keyFolders);
  }

  Path folder() {
    return folder;
  }

  List<Image> images() throws IOException {
    List<Image> all = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return all;
    }
    List<Key> keys = keys();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.img")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        name = name.substring(0, name.length() - 4);
        if (NAME.matcher(name).matches() && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          all.add(check(name, f, keys));
        }
      }
    }
    all.sort(java.util.Comparator.comparing(Image::name));
    return all;
  }

  Optional<Image> image(String name) throws IOException {
    return images().stream().filter(i -> i.name().equals(name)).findFirst();
  }

  private Image check(String name, Path file, List<Key> keys) throws IOException {
    long size = Files.size(file);
    long modified = Files.getLastModifiedTime(file).toMillis();
    Path sigFile = file.resolveSibling(file.getFileName() + ".sig");
    long sigModified = Files.exists(sigFile) ? Files.getLastModifiedTime(sigFile).toMillis() : 0;
    Checked c = checked.get(name);
    if (c != null && c.size() == size && c.modified() == modified + sigModified) {
      return c.image();
    }
    Image image;
    try {
      String missing =
          !Files.isRegularFile(sigFile)
              ? "no signature (" + sigFile.getFileName() + ")"
              : keys.isEmpty() ? "no trusted key in " + keyFolders : null;
      if (missing != null) {
        image = new Image(name, file, size, read(file, null, keys).sha256(), false, "", missing);
      } else {
        Verdict v = read(file, Files.readAllBytes(sigFile), keys);
        image =
            v.signer() == null
                ? new Image(
                    name, file, size, v.sha256(), false, "", "the signature matches no trusted key")
                : new Image(name, file, size, v.sha256(), true, v.signer(), "");
      }
    } catch (GeneralSecurityException e) {
      image = new Image(name, file, size, "", false, "", "cannot be checked: " + e.getMessage());
    }
    checked.put(name, new Checked(size, modified + sigModified, image));
    return image;
  }

  /** A file's SHA-256 and the trusted key whose signature {@code sig} is over it, if any. */
  private record Verdict(String sha256, String signer) {}

  private static Verdict read(Path file, byte[] sig, List<Key> keys)
      throws IOException, GeneralSecurityException {
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    List<Signature> verifiers = new ArrayList<>();
    if (sig != null) {
      for (Key k : keys) {
        Signature s = Signature.getInstance("SHA384withECDSA");
        s.initVerify(k.key());
        verifiers.add(s);
      }
    }
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        sha256.update(buf, 0, n);
        for (Signature s : verifiers) {
          s.update(buf, 0, n);
        }
      }
    }
    String signer = null;
    for (int i = 0; i < verifiers.size() && signer == null; i++) {
      try {
        if (verifiers.get(i).verify(sig)) {
          signer = keys.get(i).name();
        }
      } catch (java.security.SignatureException e) {
        // not a signature this key can read
      }
    }
    return new Verdict(HexFormat.of().formatHex(sha256.digest()), signer);
  }

  /** Where uploads are received, next to the images so that they are moved in at once. */
  Path incoming() {
    return folder.resolve(".incoming");
  }

  /**
   * Adds an uploaded image under {@code name} if {@code signature} (DER ECDSA over SHA-384, as
   * {@code openssl dgst -sha384 -sign} writes it) verifies with a trusted key: the signature is
   * stored next to it, then the image is moved in whole. Otherwise the upload is deleted.
   *
   * @throws IllegalArgumentException if the name is unusable or the signature verifies with no
   *     trusted key (the message says which)
   * @throws IllegalStateException if an image of that name is there already
   */
  synchronized Image add(String name, Path uploaded, byte[] signature) throws IOException {
    Path target = folder.resolve(name + ".img");
    Path sigTarget = folder.resolve(name + ".img.sig");
    try {
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "'" + name + "' is no image name: lower-case letters, digits, '.', '_' and '-'");
      }
      if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new IllegalStateException(
            "there is already an image '" + name + "': remove it from " + folder + " first");
      }
      List<Key> keys = keys();
      if (keys.isEmpty()) {
        throw new IllegalArgumentException(
            "no trusted key in " + keyFolders + ": nothing can be verified, so nothing is added");
      }
      Verdict v;
      try {
        v = read(uploaded, signature, keys);
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException("the image cannot be checked: " + e.getMessage());
      }
      if (v.signer() == null) {
        throw new IllegalArgumentException(
            "the signature of '" + name + "' matches no trusted key in " + keyFolders);
      }
      Path sigPart = uploaded.resolveSibling(uploaded.getFileName() + ".sig");
      Files.write(sigPart, signature);
      Files.move(sigPart, sigTarget, StandardCopyOption.ATOMIC_MOVE);
      Files.move(uploaded, target, StandardCopyOption.ATOMIC_MOVE);
      return image(name).orElseThrow();
    } finally {
      Files.deleteIfExists(uploaded);
    }
  }

  private List<Key> keys() throws IOException {
    List<Key> keys = new ArrayList<>();
    for (Path dir : keyFolders) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.pem")) {
        for (Path f : files) {
          PublicKey k = publicKey(Files.readString(f));
          if (k != null) {
            keys.add(new Key(f.getFileName().toString(), k));
          }
        }
      }
    }
    return keys;
  }

  /** Reads a PEM "PUBLIC KEY" of a P-384 key; null for anything else. */
  static PublicKey publicKey(String pem) {
    int b = pem.indexOf("-----BEGIN PUBLIC KEY-----");
    int e = pem.indexOf("-----END PUBLIC KEY-----");
    if (b < 0 || e < b) {
      return null;
    }
    String base64 = pem.substring(b + 26, e).replaceAll("\\s", "");
    try {
      PublicKey k =
          KeyFactory.getInstance("EC")
              .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
      if (k instanceof ECPublicKey ec
          && ec.getParams().getCurve().getField().getFieldSize() == 384) {
        return k;
      }
      return null;
    } catch (GeneralSecurityException | IllegalArgumentException ex) {
      return null;
    }
  }
}
