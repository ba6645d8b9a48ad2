package io.bulwark.updates.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * Builds and signs an update package, as the release engineer's {@code pack} does: the files (by
 * their path in the package), a manifest listing each with its size and SHA-384, and the manifest's
 * two detached CMS signatures. HSS/LMS signing is not an approved service of the FIPS module in
 * software (NIST SP 800-208 keeps LMS signing to hardware modules), so it runs on the signing
 * workstation outside approved-only mode or in its HSM; the appliance only verifies, in approved
 * mode.
 */
final class PackageWriter {
  private PackageWriter() {}

  /** A signing key and the key id its signature names (its public key's id). */
  record Signer(PrivateKey key, String keyId) {}

  /**
   * Writes the package to {@code out}.
   *
   * @param files the files by their path in the package
   */
  static UpdateManifest write(
      Path out,
      Version version,
      List<VersionRange> appliesTo,
      boolean restart,
      String notes,
      Set<String> revokes,
      Map<String, Path> files,
      Signer ecdsa,
      Signer lms)
      throws IOException, GeneralSecurityException {
    Map<String, Path> all = new TreeMap<>(files);
    Path index = null;
    try {
      if (!all.containsKey(INDEX) && all.keySet().stream().anyMatch(PackageWriter::isBundle)) {
        index = Files.createTempFile(out.toAbsolutePath().getParent(), ".index", ".xml");
        Files.write(index, index(version, all));
        all.put(INDEX, index);
      }
      return writeSigned(out, version, appliesTo, restart, notes, revokes, all, ecdsa, lms);
    } finally {
      if (index != null) {
        Files.deleteIfExists(index);
      }
    }
  }

  static final String INDEX = "index.xml";

  /**
   * Returns true for a package path that holds a bundle: {@code bundles/} (installed) or {@code
   * plugins/} (put into the offline repository and offered, installed only where it runs).
   */
  static boolean isBundle(String path) {
    return path.startsWith("bundles/") || path.startsWith("plugins/");
  }

  /** The R5 index of the package's bundles, their URLs relative to the package root. */
  static byte[] index(Version version, Map<String, Path> files)
      throws IOException, GeneralSecurityException {
    List<RepositoryIndex.Entry> entries = new ArrayList<>();
    for (Map.Entry<String, Path> f : files.entrySet()) {
      if (isBundle(f.getKey())) {
        entries.add(
            new RepositoryIndex.Entry(
                f.getKey(),
                BundleResource.read(f.getValue()),
                digest(f.getValue(), "SHA-256"),
                Files.size(f.getValue())));
      }
    }
    return RepositoryIndex.write("bulwark-" + version, System.currentTimeMillis(), entries);
  }

  private static UpdateManifest writeSigned(
      Path out,
      Version version,
      List<VersionRange> appliesTo,
      boolean restart,
      String notes,
      Set<String> revokes,
      Map<String, Path> files,
      Signer ecdsa,
      Signer lms)
      throws IOException, GeneralSecurityException {
    List<UpdateManifest.Entry> entries = new ArrayList<>();
    for (Map.Entry<String, Path> f : new TreeMap<>(files).entrySet()) {
      String problem = PackagePath.problem(f.getKey());
      if (problem != null) {
        throw new IllegalArgumentException("cannot pack " + problem);
      }
      entries.add(
          new UpdateManifest.Entry(f.getKey(), Files.size(f.getValue()), sha384(f.getValue())));
    }
    UpdateManifest manifest =
        new UpdateManifest(version, appliesTo, restart, notes, revokes, entries);
    byte[] manifestBytes = manifest.encode();
    byte[] ecdsaSignature = sign(manifestBytes, ecdsa, "SHA384withECDSA");
    byte[] lmsSignature = sign(manifestBytes, lms, "LMS");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
      put(zip, UpdatePackage.MANIFEST, manifestBytes);
      put(zip, UpdatePackage.ECDSA_SIGNATURE, ecdsaSignature);
      put(zip, UpdatePackage.LMS_SIGNATURE, lmsSignature);
      for (Map.Entry<String, Path> f : new TreeMap<>(files).entrySet()) {
        zip.putNextEntry(new ZipEntry(f.getKey()));
        try (InputStream in = Files.newInputStream(f.getValue())) {
          in.transferTo(zip);
        }
        zip.closeEntry();
      }
    }
    return manifest;
  }

  static void put(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(bytes);
    zip.closeEntry();
  }

  /** A detached CMS SignedData over {@code content}, its signer named by the key id. */
  static byte[] sign(byte[] content, Signer signer, String algorithm)
      throws GeneralSecurityException {
    try {
      CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
      gen.addSignerInfoGenerator(
          new JcaSignerInfoGeneratorBuilder(
                  new JcaDigestCalculatorProviderBuilder().setProvider("BCFIPS").build())
              .build(
                  new JcaContentSignerBuilder(algorithm).setProvider("BCFIPS").build(signer.key()),
                  HexFormat.of().parseHex(signer.keyId())));
      return gen.generate(new CMSProcessableByteArray(content), false).getEncoded();
    } catch (CMSException | OperatorCreationException | IOException e) {
      throw new GeneralSecurityException(
          "cannot sign with " + algorithm + ": " + e.getMessage(), e);
    }
  }

  static String sha384(Path file) throws IOException, GeneralSecurityException {
    return digest(file, "SHA-384");
  }

  static String digest(Path file, String algorithm) throws IOException, GeneralSecurityException {
    MessageDigest d = MessageDigest.getInstance(algorithm);
    try (InputStream in = Files.newInputStream(file);
        OutputStream sink = OutputStream.nullOutputStream()) {
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        d.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(d.digest());
  }
}
