package io.bulwark.updates.internal;

import io.bulwark.lib.pki.Pem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jcajce.spec.LMOtsParameters;
import org.bouncycastle.jcajce.spec.LMSKeyGenParameterSpec;
import org.bouncycastle.jcajce.spec.LMSigParameters;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * Update-signing keys made by the tests (none is kept in the repository) and packages signed with
 * them, as the release engineer's workstation makes them: LMS keys and signatures outside
 * approved-only mode. What the appliance does runs in {@link #approved}.
 */
final class TestPackages {
  /** A signing identity: an ECDSA P-384 and an LMS key pair. */
  record Identity(String name, KeyPair ecdsa, KeyPair lms) {
    PackageWriter.Signer ecdsaSigner() {
      return new PackageWriter.Signer(
          ecdsa.getPrivate(), UpdateKeys.id(ecdsa.getPublic().getEncoded()));
    }

    PackageWriter.Signer lmsSigner() {
      return new PackageWriter.Signer(
          lms.getPrivate(), UpdateKeys.id(lms.getPublic().getEncoded()));
    }

    /** Writes the public keys into a trust folder. */
    void trust(Path folder) throws Exception {
      Files.createDirectories(folder);
      Files.writeString(
          folder.resolve(name + ".ecdsa.pem"),
          Pem.encode("PUBLIC KEY", ecdsa.getPublic().getEncoded()));
      Files.writeString(
          folder.resolve(name + ".lms.pem"),
          Pem.encode("PUBLIC KEY", lms.getPublic().getEncoded()));
    }
  }

  private TestPackages() {}

  static synchronized void providers() {
    if (Security.getProvider("BCFIPS") == null) {
      Security.insertProviderAt(new BouncyCastleFipsProvider(), 1);
    }
  }

  static Identity identity(String name) throws Exception {
    providers();
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC", "BCFIPS");
    ec.initialize(new ECGenParameterSpec("secp384r1"));
    KeyPairGenerator lms = KeyPairGenerator.getInstance("LMS", "BCFIPS");
    lms.initialize(
        new LMSKeyGenParameterSpec(
            LMSigParameters.lms_sha256_n32_h5, LMOtsParameters.sha256_n32_w4));
    return new Identity(name, ec.generateKeyPair(), lms.generateKeyPair());
  }

  /** Runs {@code work} on a thread in approved-only mode, as everything runs on the appliance. */
  static <T> T approved(Callable<T> work) throws Exception {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              CryptoServicesRegistrar.setApprovedOnlyMode(true);
              try {
                result.set(work.call());
              } catch (Exception e) {
                failure.set(e);
              }
            });
    t.start();
    t.join();
    if (failure.get() != null) {
      throw failure.get();
    }
    return result.get();
  }

  /** A package of {@code files} for version 0.2.0, applying to 0.1.x, signed by {@code by}. */
  static UpdateManifest pack(Path out, Map<String, Path> files, Identity by, Set<String> revokes)
      throws Exception {
    return PackageWriter.write(
        out,
        Version.parseVersion("0.2.0"),
        List.of(new VersionRange("[0.1.0,0.2.0)")),
        false,
        "Faster scrapes.",
        revokes,
        files,
        by.ecdsaSigner(),
        by.lmsSigner());
  }
}
