package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.jcajce.spec.LMSigParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * The release engineer's keygen and pack, then the appliance's verification: two packages signed
 * one after the other use two LMS indexes, the key file moving on before each signature leaves.
 */
class UpdateToolTest {
  @TempDir Path dir;

  @Test
  void keygenOnTheCommandLineTakesTheLmsTreesHeightAndRefusesOneLmsHasNot() throws Exception {
    TestPackages.providers();
    Path keys = dir.resolve("cli");
    UpdateTool.main(new String[] {"keygen", "test-key", keys.toString(), "--height=5"});
    // The public key is an HSS key (RFC 8554 5.3, 6.1): L, then the LMS type, 5 for
    // LMS_SHA256_M32_H5 (7 for the default H15).
    byte[] spki =
        io.bulwark.lib.pki.Pem.decode(
                "PUBLIC KEY", Files.readString(keys.resolve("test-key.lms.pem")))
            .get(0);
    byte[] hss =
        org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(spki)
            .getPublicKeyData()
            .getOctets();
    byte[] key = org.bouncycastle.asn1.ASN1OctetString.getInstance(hss).getOctets();
    assertThat(java.nio.ByteBuffer.wrap(key, 4, 4).getInt()).as("LMS type").isEqualTo(5);
    assertThat(Files.readString(keys.resolve("test-key.lms.state")).strip()).isEqualTo("0");

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                UpdateTool.main(
                    new String[] {"keygen", "other", dir.resolve("x").toString(), "--height=12"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--height must be 5, 10, 15, 20 or 25");
    assertThat(dir.resolve("x")).doesNotExist();
  }

  @Test
  void keysMadeByTheToolSignPackagesTheApplianceVerifiesAndTheLmsIndexMovesOn() throws Exception {
    TestPackages.providers();
    Path keys = dir.resolve("signing");
    UpdateTool.keygen("release-2027", keys, LMSigParameters.lms_sha256_n32_h5);
    assertThat(Files.getPosixFilePermissions(keys.resolve("release-2027.lms.key")))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    Path bundle = dir.resolve("x.jar");
    Files.write(bundle, new byte[] {9, 9, 9});
    assertThat(Files.readString(keys.resolve("release-2027.lms.state")).strip()).isEqualTo("0");
    for (String version : List.of("0.2.0", "0.2.1")) {
      UpdateTool.pack(
          dir.resolve(version + ".bwu"),
          Version.parseVersion(version),
          List.of(new VersionRange("[0.1.0,0.3.0)")),
          false,
          "notes",
          Set.of(),
          Map.of("images/x.img", bundle),
          keys,
          "release-2027",
          null);
    }
    assertThat(Files.readString(keys.resolve("release-2027.lms.state")).strip())
        .as("two indexes used")
        .isEqualTo("2");
    // Each signature used an index of its own: q, the first field of an LMS signature (RFC 8554
    // 5.4), is 0 and then 1.
    List<Integer> indexes = new java.util.ArrayList<>();
    for (String version : List.of("0.2.0", "0.2.1")) {
      try (java.util.zip.ZipFile zip =
          new java.util.zip.ZipFile(dir.resolve(version + ".bwu").toFile())) {
        byte[] cms = zip.getInputStream(zip.getEntry(UpdatePackage.LMS_SIGNATURE)).readAllBytes();
        byte[] sig =
            new org.bouncycastle.cms.CMSSignedData(cms)
                .getSignerInfos()
                .getSigners()
                .iterator()
                .next()
                .getSignature();
        indexes.add(java.nio.ByteBuffer.wrap(sig, 0, 4).getInt());
      }
    }
    assertThat(indexes).containsExactly(0, 1);

    // The appliance trusts only the public halves.
    Path trust = Files.createDirectories(dir.resolve("trust"));
    for (String f : List.of("release-2027.ecdsa.pem", "release-2027.lms.pem")) {
      Files.copy(keys.resolve(f), trust.resolve(f));
    }
    for (String version : List.of("0.2.0", "0.2.1")) {
      Path staging = Files.createDirectories(dir.resolve("staging-" + version));
      UpdatePackage.Verified v =
          TestPackages.approved(
              () ->
                  UpdatePackage.verify(
                      dir.resolve(version + ".bwu"),
                      UpdateKeys.load(List.of(trust)),
                      Set.of(),
                      staging));
      assertThat(v.manifest().version()).isEqualTo(Version.parseVersion(version));
      assertThat(v.lmsSigner()).isEqualTo("release-2027");
      assertThat(staging.resolve("images/x.img")).hasBinaryContent(new byte[] {9, 9, 9});
    }
  }

  @Test
  void keysKeptInABcfksKeystoreSignPackagesAndAWrongPasswordIsRefusedInWords() throws Exception {
    TestPackages.providers();
    Path keys = dir.resolve("signing");
    char[] password = "correct horse battery".toCharArray();
    UpdateTool.keygen("vault", keys, LMSigParameters.lms_sha256_n32_h5, password);
    assertThat(keys.resolve("vault.ecdsa.key")).doesNotExist();
    assertThat(keys.resolve("vault.lms.key")).doesNotExist();
    assertThat(Files.getPosixFilePermissions(keys.resolve("vault.bcfks")))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    // Neither private key is in the keystore's bytes as it is in a PKCS#8 file.
    byte[] store = Files.readAllBytes(keys.resolve("vault.bcfks"));
    byte[] ecdsa =
        UpdateTool.readKeystore(keys.resolve("vault.bcfks"), "ecdsa", password).getEncoded();
    assertThat(indexOf(store, java.util.Arrays.copyOfRange(ecdsa, ecdsa.length - 32, ecdsa.length)))
        .isNegative();

    Path bundle = dir.resolve("x.jar");
    Files.write(bundle, new byte[] {7});
    Path trust = Files.createDirectories(dir.resolve("trust"));
    for (String f : List.of("vault.ecdsa.pem", "vault.lms.pem")) {
      Files.copy(keys.resolve(f), trust.resolve(f));
    }
    for (String version : List.of("0.3.0", "0.3.1")) {
      UpdateTool.pack(
          dir.resolve(version + ".bwu"),
          Version.parseVersion(version),
          List.of(new VersionRange("[0.1.0,1.0.0)")),
          false,
          "notes",
          Set.of(),
          Map.of("images/x.img", bundle),
          keys,
          "vault",
          password);
      Path staging = Files.createDirectories(dir.resolve("staging-" + version));
      UpdatePackage.Verified v =
          TestPackages.approved(
              () ->
                  UpdatePackage.verify(
                      dir.resolve(version + ".bwu"),
                      UpdateKeys.load(List.of(trust)),
                      Set.of(),
                      staging));
      assertThat(v.ecdsaSigner()).isEqualTo("vault");
      assertThat(v.lmsSigner()).isEqualTo("vault");
    }
    assertThat(Files.readString(keys.resolve("vault.lms.state")).strip()).isEqualTo("2");

    IllegalArgumentException wrong =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                UpdateTool.pack(
                    dir.resolve("0.3.2.bwu"),
                    Version.parseVersion("0.3.2"),
                    List.of(new VersionRange("[0.1.0,1.0.0)")),
                    false,
                    "notes",
                    Set.of(),
                    Map.of("images/x.img", bundle),
                    keys,
                    "vault",
                    "not the password".toCharArray()));
    assertThat(wrong.getMessage()).contains("vault.bcfks").contains("password");
    assertThat(dir.resolve("0.3.2.bwu")).doesNotExist();
    assertThat(Files.readString(keys.resolve("vault.lms.state")).strip())
        .as("no index spent on a refused password")
        .isEqualTo("2");
    assertThat(
            org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class,
                    () ->
                        UpdateTool.keygen(
                            "weak", keys, LMSigParameters.lms_sha256_n32_h5, "short".toCharArray()))
                .getMessage())
        .contains("12 characters");
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
