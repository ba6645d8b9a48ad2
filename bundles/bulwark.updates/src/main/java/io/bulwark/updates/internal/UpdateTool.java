package io.bulwark.updates.internal;

import io.bulwark.lib.pki.Pem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jcajce.spec.LMOtsParameters;
import org.bouncycastle.jcajce.spec.LMSKeyGenParameterSpec;
import org.bouncycastle.jcajce.spec.LMSigParameters;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * The release engineer's tool, run on the signing workstation (not on the appliance):
 *
 * <pre>
 * keygen NAME DIR                 a key pair of each kind: DIR/NAME.ecdsa.pem and DIR/NAME.lms.pem
 *                                 (public: into keys/), DIR/NAME.ecdsa.key and DIR/NAME.lms.key
 *                                 (private, 0600: never leave the workstation)
 * pack OUT VERSION RANGE NOTES KEYDIR NAME [--revoke=KEYID]... [--restart] FILE=PATH...
 *                                 a package of the files (bundles/NAME.jar, images/..., os/...),
 *                                 signed with NAME's two keys, with the R5 index.xml of its
 *                                 bundles; --revoke lists a key id no package may be trusted by
 *                                 any more, --restart marks a package that needs a restart
 * verify PACKAGE KEYDIR           checks a package as the appliance does, staging into a temporary
 *                                 folder that is removed again
 * </pre>
 *
 * An LMS key can make a bounded number of signatures (2^15 here), each with a one-time key of its
 * own: the next index is written to {@code NAME.lms.state} (synced) before a signature is made, so
 * an index is never used twice. Keep one copy of the key and its state, never a restored backup.
 */
public final class UpdateTool {
  private UpdateTool() {}

  public static void main(String[] args) throws Exception {
    Security.insertProviderAt(new BouncyCastleFipsProvider(), 1);
    if (args.length == 0) {
      usage();
      return;
    }
    switch (args[0]) {
      case "keygen" -> keygen(args[1], Path.of(args[2]));
      case "pack" -> pack(args);
      case "verify" -> verify(Path.of(args[1]), Path.of(args[2]));
      default -> usage();
    }
  }

  private static void usage() {
    System.err.println(
        "usage: keygen NAME DIR | pack OUT VERSION RANGE NOTES KEYDIR NAME [--revoke=KEYID]..."
            + " [--restart] FILE=PATH... | verify"
            + " PACKAGE KEYDIR");
    System.exit(2);
  }

  static void keygen(String name, Path dir) throws Exception {
    keygen(name, dir, LMSigParameters.lms_sha256_n32_h15);
  }

  static void keygen(String name, Path dir, LMSigParameters height) throws Exception {
    Files.createDirectories(dir);
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC", "BCFIPS");
    ec.initialize(new ECGenParameterSpec("secp384r1"));
    KeyPairGenerator lms = KeyPairGenerator.getInstance("LMS", "BCFIPS");
    lms.initialize(new LMSKeyGenParameterSpec(height, LMOtsParameters.sha256_n32_w4));
    KeyPair e = ec.generateKeyPair();
    KeyPair l = lms.generateKeyPair();
    Files.writeString(
        dir.resolve(name + ".ecdsa.pem"), Pem.encode("PUBLIC KEY", e.getPublic().getEncoded()));
    Files.writeString(
        dir.resolve(name + ".lms.pem"), Pem.encode("PUBLIC KEY", l.getPublic().getEncoded()));
    writePrivate(dir.resolve(name + ".ecdsa.key"), e.getPrivate());
    writePrivate(dir.resolve(name + ".lms.key"), l.getPrivate());
    writeState(dir.resolve(name + ".lms.state"), 0);
    System.out.println(
        "keys of "
            + name
            + ": ECDSA "
            + UpdateKeys.id(e.getPublic().getEncoded())
            + ", LMS "
            + UpdateKeys.id(l.getPublic().getEncoded()));
  }

  /** Writes a private key, readable by its owner only, replacing the file at once. */
  static void writePrivate(Path file, PrivateKey key) throws Exception {
    Path tmp = file.resolveSibling(file.getFileName() + ".new");
    Files.deleteIfExists(tmp);
    Files.createFile(
        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, Pem.encode("PRIVATE KEY", key.getEncoded()));
    try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  static PrivateKey readPrivate(Path file, String algorithm) throws Exception {
    return KeyFactory.getInstance(algorithm, "BCFIPS")
        .generatePrivate(
            new PKCS8EncodedKeySpec(Pem.decode("PRIVATE KEY", Files.readString(file)).get(0)));
  }

  private static void pack(String[] args) throws Exception {
    Path out = Path.of(args[1]);
    Version version = Version.parseVersion(args[2]);
    VersionRange range = new VersionRange(args[3]);
    String notes = Files.readString(Path.of(args[4]));
    Path keyDir = Path.of(args[5]);
    String name = args[6];
    Map<String, Path> files = new LinkedHashMap<>();
    Set<String> revokes = new java.util.TreeSet<>();
    boolean restart = false;
    for (int i = 7; i < args.length; i++) {
      if (args[i].startsWith("--revoke=")) {
        revokes.add(args[i].substring("--revoke=".length()));
      } else if (args[i].equals("--restart")) {
        restart = true;
      } else {
        String[] kv = args[i].split("=", 2);
        if (kv.length != 2) {
          throw new IllegalArgumentException("'" + args[i] + "' is not PATH-IN-PACKAGE=FILE");
        }
        files.put(kv[0], Path.of(kv[1]));
      }
    }
    UpdateManifest m =
        pack(out, version, List.of(range), restart, notes, revokes, files, keyDir, name);
    System.out.println(
        out
            + ": "
            + m.version()
            + ", "
            + m.files().size()
            + " files, "
            + m.totalBytes()
            + " bytes");
  }

  /** Packs and signs with NAME's keys in {@code keyDir}, saving the LMS key's next index first. */
  static UpdateManifest pack(
      Path out,
      Version version,
      List<VersionRange> appliesTo,
      boolean restart,
      String notes,
      Set<String> revokes,
      Map<String, Path> files,
      Path keyDir,
      String name)
      throws Exception {
    UpdateKeys keys = UpdateKeys.load(List.of(keyDir));
    String ecdsaId = id(keys, name, UpdateKeys.Kind.ECDSA);
    String lmsId = id(keys, name, UpdateKeys.Kind.LMS);
    PrivateKey ecdsa = readPrivate(keyDir.resolve(name + ".ecdsa.key"), "EC");
    PrivateKey lms = nextLmsKey(keyDir, name);
    Path tmp = out.resolveSibling(out.getFileName() + ".part");
    UpdateManifest m =
        PackageWriter.write(
            tmp,
            version,
            appliesTo,
            restart,
            notes,
            revokes,
            files,
            new PackageWriter.Signer(ecdsa, ecdsaId),
            new PackageWriter.Signer(lms, lmsId));
    Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return m;
  }

  /**
   * Loads NAME's LMS key at its next unused index and records that index as used, durably, before
   * the key is handed out: the key's own encoding does not move on with its signatures, so the
   * state file {@code NAME.lms.state} (the next index) is what keeps a one-time key from being used
   * twice.
   */
  static PrivateKey nextLmsKey(Path keyDir, String name) throws Exception {
    Path stateFile = keyDir.resolve(name + ".lms.state");
    if (!Files.isRegularFile(stateFile)) {
      throw new IllegalStateException(
          stateFile
              + " is missing: without it the LMS key's used indexes are not known; do not sign");
    }
    long next = Long.parseLong(Files.readString(stateFile).strip());
    org.bouncycastle.jcajce.interfaces.LMSPrivateKey key =
        (org.bouncycastle.jcajce.interfaces.LMSPrivateKey)
            readPrivate(keyDir.resolve(name + ".lms.key"), "LMS");
    if (next >= key.getIndex() + key.getUsagesRemaining()) {
      throw new IllegalStateException(
          "the LMS key " + name + " has no signature left: make a new one");
    }
    if (next > 0) {
      key.extractKeyShard((int) next); // the used indexes, thrown away
    }
    if (key.getIndex() != next) {
      throw new IllegalStateException(
          "the LMS key " + name + " is at " + key.getIndex() + ", not " + next);
    }
    writeState(stateFile, next + 1);
    return key.extractKeyShard(1);
  }

  static void writeState(Path file, long next) throws Exception {
    Path tmp = file.resolveSibling(file.getFileName() + ".new");
    Files.writeString(tmp, next + "\n");
    try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static String id(UpdateKeys keys, String name, UpdateKeys.Kind kind) {
    return keys.keys().stream()
        .filter(k -> k.name().equals(name) && k.kind() == kind)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no " + kind + " key " + name))
        .id();
  }

  private static void verify(Path pkg, Path keyDir) throws Exception {
    org.bouncycastle.crypto.CryptoServicesRegistrar.setApprovedOnlyMode(true);
    Path staging = Files.createTempDirectory("bulwark-verify");
    try {
      UpdatePackage.Verified v =
          UpdatePackage.verify(pkg, UpdateKeys.load(List.of(keyDir)), Set.of(), staging);
      List<String> lines = new ArrayList<>();
      lines.add(pkg + ": verified, version " + v.manifest().version());
      lines.add(
          "  signed by " + v.ecdsaSigner() + " (ECDSA P-384) and " + v.lmsSigner() + " (LMS)");
      lines.add(
          "  applies to "
              + v.manifest().appliesTo()
              + "; "
              + v.manifest().files().size()
              + " files");
      lines.forEach(System.out::println);
    } catch (IllegalArgumentException e) {
      System.out.println(pkg + ": refused: " + e.getMessage());
      System.exit(1);
    } finally {
      UpdatePackage.clear(staging);
      Files.deleteIfExists(staging);
    }
  }
}
