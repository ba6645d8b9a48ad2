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
 * keygen NAME DIR [--keystore] [--height=H]
 *                                 a key pair of each kind: DIR/NAME.ecdsa.pem and DIR/NAME.lms.pem
 *                                 (public: into keys/), DIR/NAME.ecdsa.key and DIR/NAME.lms.key
 *                                 (private, 0600: never leave the workstation), or with
 *                                 --keystore both private keys in the password-protected BCFKS
 *                                 keystore DIR/NAME.bcfks (0600) instead; --height sets the LMS
 *                                 tree's height (5, 10, 15, 20 or 25: the key signs 2^H packages;
 *                                 15 by default; each signature recomputes the tree, so a key that
 *                                 signs few packages, a test's, is quicker with a lower one)
 * pack OUT VERSION RANGE NOTES KEYDIR NAME [--revoke=KEYID]... [--restart] FILE=PATH...
 *                                 a package of the files (bundles/NAME.jar, images/..., os/...),
 *                                 signed with NAME's two keys, with the R5 index.xml of its
 *                                 bundles; --revoke lists a key id no package may be trusted by
 *                                 any more, --restart marks a package that needs a restart
 * verify PACKAGE KEYDIR           checks a package as the appliance does, staging into a temporary
 *                                 folder that is removed again
 * </pre>
 *
 * An LMS key can make a bounded number of signatures (2^15 by default), each with a one-time key of
 * its own: the next index is written to {@code NAME.lms.state} (synced) before a signature is made,
 * so an index is never used twice. Keep one copy of the key and its state, never a restored backup.
 *
 * <p>The keystore's password is read from the terminal, or from {@code BULWARK_SIGNING_PASSWORD}
 * where the tool runs without one (a signing script); pack uses the keystore when DIR holds one.
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
      case "keygen" -> keygen(args);
      case "pack" -> pack(args);
      case "verify" -> verify(Path.of(args[1]), Path.of(args[2]));
      default -> usage();
    }
  }

  private static void usage() {
    System.err.println(
        "usage: keygen NAME DIR [--keystore] [--height=H] | pack OUT VERSION RANGE NOTES KEYDIR NAME [--revoke=KEYID]..."
            + " [--restart] FILE=PATH... | verify"
            + " PACKAGE KEYDIR");
    System.exit(2);
  }

  /** {@code keygen NAME DIR [--keystore] [--height=H]}. */
  private static void keygen(String[] args) throws Exception {
    if (args.length < 3) {
      usage();
      return;
    }
    boolean keystore = false;
    LMSigParameters height = LMSigParameters.lms_sha256_n32_h15;
    for (int i = 3; i < args.length; i++) {
      if (args[i].equals("--keystore")) {
        keystore = true;
      } else if (args[i].startsWith("--height=")) {
        height = height(args[i].substring("--height=".length()));
      } else {
        throw new IllegalArgumentException(
            "keygen: unknown option " + args[i] + " (expected --keystore or --height=H)");
      }
    }
    keygen(args[1], Path.of(args[2]), height, keystore ? password(args[1]) : null);
  }

  /** The LMS parameter set of tree height {@code h}: 5, 10, 15, 20 or 25. */
  static LMSigParameters height(String h) {
    return switch (h) {
      case "5" -> LMSigParameters.lms_sha256_n32_h5;
      case "10" -> LMSigParameters.lms_sha256_n32_h10;
      case "15" -> LMSigParameters.lms_sha256_n32_h15;
      case "20" -> LMSigParameters.lms_sha256_n32_h20;
      case "25" -> LMSigParameters.lms_sha256_n32_h25;
      default ->
          throw new IllegalArgumentException(
              "keygen: --height must be 5, 10, 15, 20 or 25 (the key signs 2^H packages), got "
                  + h);
    };
  }

  static void keygen(String name, Path dir) throws Exception {
    keygen(name, dir, LMSigParameters.lms_sha256_n32_h15);
  }

  static void keygen(String name, Path dir, LMSigParameters height) throws Exception {
    keygen(name, dir, height, null);
  }

  /**
   * Makes NAME's two key pairs in {@code dir}: the private keys as PEM files, or with a {@code
   * password} in the BCFKS keystore {@code NAME.bcfks}.
   */
  static void keygen(String name, Path dir, LMSigParameters height, char[] password)
      throws Exception {
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
    if (password == null) {
      writePrivate(dir.resolve(name + ".ecdsa.key"), e.getPrivate());
      writePrivate(dir.resolve(name + ".lms.key"), l.getPrivate());
    } else {
      writeKeystore(keystore(dir, name), name, e, l, password);
    }
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
    byte[] pem =
        Pem.encode("PRIVATE KEY", key.getEncoded())
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    writeOwnerOnly(file, out -> out.write(pem));
  }

  /** What writes a secret file's content. */
  private interface Content {
    void writeTo(java.io.OutputStream out) throws Exception;
  }

  /** Writes a file readable by its owner only, synced, replacing the file at once. */
  private static void writeOwnerOnly(Path file, Content content) throws Exception {
    Path tmp = file.resolveSibling(file.getFileName() + ".new");
    Files.deleteIfExists(tmp);
    Files.createFile(
        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (var out = Files.newOutputStream(tmp, java.nio.file.StandardOpenOption.WRITE)) {
      content.writeTo(out);
    }
    try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Where keygen --keystore keeps NAME's private keys. */
  static Path keystore(Path dir, String name) {
    return dir.resolve(name + ".bcfks");
  }

  /**
   * Writes NAME's private keys into a new BCFKS keystore (readable by its owner only), each with a
   * certificate the keystore needs for it: the ECDSA key's self-signed, the LMS key's signed by the
   * ECDSA key (so that no one-time LMS index is spent on it).
   */
  static void writeKeystore(Path file, String name, KeyPair ecdsa, KeyPair lms, char[] password)
      throws Exception {
    if (password.length < 12) {
      throw new IllegalArgumentException("the keystore's password must have 12 characters or more");
    }
    java.security.cert.X509Certificate ecCert =
        certificate(name + " ECDSA", ecdsa.getPublic(), ecdsa);
    java.security.cert.X509Certificate lmsCert = certificate(name + " LMS", lms.getPublic(), ecdsa);
    java.security.KeyStore ks = java.security.KeyStore.getInstance("BCFKS", "BCFIPS");
    ks.load(null, null);
    ks.setKeyEntry(
        "ecdsa", ecdsa.getPrivate(), password, new java.security.cert.Certificate[] {ecCert});
    ks.setKeyEntry(
        "lms", lms.getPrivate(), password, new java.security.cert.Certificate[] {lmsCert, ecCert});
    writeOwnerOnly(file, out -> ks.store(out, password));
  }

  private static java.security.cert.X509Certificate certificate(
      String subject, java.security.PublicKey key, KeyPair issuer) throws Exception {
    org.bouncycastle.asn1.x500.X500Name issuerName =
        new org.bouncycastle.asn1.x500.X500Name("CN=" + subjectName(issuer.getPublic()));
    java.time.Instant now = java.time.Instant.now();
    var builder =
        new org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder(
            issuerName,
            new java.math.BigInteger(63, new java.security.SecureRandom()),
            java.util.Date.from(now),
            java.util.Date.from(now.plus(java.time.Duration.ofDays(3650))),
            key == issuer.getPublic()
                ? issuerName
                : new org.bouncycastle.asn1.x500.X500Name("CN=" + subject + " update signing"),
            key);
    var signer =
        new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder("SHA384withECDSA")
            .setProvider("BCFIPS")
            .build(issuer.getPrivate());
    return new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter()
        .setProvider("BCFIPS")
        .getCertificate(builder.build(signer));
  }

  private static String subjectName(java.security.PublicKey ecdsa) {
    return "update signing " + UpdateKeys.id(ecdsa.getEncoded());
  }

  /** Reads the private key {@code alias} ("ecdsa" or "lms") from a keystore keygen made. */
  static PrivateKey readKeystore(Path file, String alias, char[] password) throws Exception {
    java.security.KeyStore ks = java.security.KeyStore.getInstance("BCFKS", "BCFIPS");
    try (var in = Files.newInputStream(file)) {
      ks.load(in, password);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "the keystore "
              + file
              + " cannot be opened ("
              + e.getMessage()
              + "): is the password right?",
          e);
    }
    java.security.Key key = ks.getKey(alias, password);
    if (!(key instanceof PrivateKey pk)) {
      throw new IllegalArgumentException("the keystore " + file + " holds no private key " + alias);
    }
    return pk;
  }

  /**
   * The keystore's password: from the terminal, or from {@code BULWARK_SIGNING_PASSWORD} where
   * there is none.
   */
  static char[] password(String name) {
    String env = System.getenv("BULWARK_SIGNING_PASSWORD");
    if (env != null && !env.isEmpty()) {
      return env.toCharArray();
    }
    java.io.Console console = System.console();
    if (console == null) {
      throw new IllegalStateException(
          "no terminal to ask for the keystore password of "
              + name
              + ": run on a terminal or set BULWARK_SIGNING_PASSWORD");
    }
    return console.readPassword("Keystore password for %s: ", name);
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
        pack(out, version, List.of(range), restart, notes, revokes, files, keyDir, name, null);
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

  /**
   * Packs and signs with NAME's keys in {@code keyDir} (from its keystore, with {@code password} or
   * the one asked for when null, where keygen made one), saving the LMS key's next index first.
   */
  static UpdateManifest pack(
      Path out,
      Version version,
      List<VersionRange> appliesTo,
      boolean restart,
      String notes,
      Set<String> revokes,
      Map<String, Path> files,
      Path keyDir,
      String name,
      char[] password)
      throws Exception {
    UpdateKeys keys = UpdateKeys.load(List.of(keyDir));
    String ecdsaId = id(keys, name, UpdateKeys.Kind.ECDSA);
    String lmsId = id(keys, name, UpdateKeys.Kind.LMS);
    Path store = keystore(keyDir, name);
    PrivateKey ecdsa;
    PrivateKey lmsKey;
    if (Files.isRegularFile(store)) {
      char[] pw = password != null ? password : password(name);
      ecdsa = readKeystore(store, "ecdsa", pw);
      lmsKey = readKeystore(store, "lms", pw);
    } else {
      ecdsa = readPrivate(keyDir.resolve(name + ".ecdsa.key"), "EC");
      lmsKey = readPrivate(keyDir.resolve(name + ".lms.key"), "LMS");
    }
    PrivateKey lms = nextLmsKey(keyDir, name, lmsKey);
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
  static PrivateKey nextLmsKey(Path keyDir, String name, PrivateKey lmsKey) throws Exception {
    Path stateFile = keyDir.resolve(name + ".lms.state");
    if (!Files.isRegularFile(stateFile)) {
      throw new IllegalStateException(
          stateFile
              + " is missing: without it the LMS key's used indexes are not known; do not sign");
    }
    long next = Long.parseLong(Files.readString(stateFile).strip());
    org.bouncycastle.jcajce.interfaces.LMSPrivateKey key =
        (org.bouncycastle.jcajce.interfaces.LMSPrivateKey) lmsKey;
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
