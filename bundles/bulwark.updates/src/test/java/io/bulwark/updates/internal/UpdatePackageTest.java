package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Version;

/**
 * Packages made by {@link PackageWriter} and read by {@link UpdatePackage} in approved-only mode: a
 * good one verifies and is staged whole; every way of spoiling one is refused with its reason and
 * leaves nothing staged.
 */
class UpdatePackageTest {
  static TestPackages.Identity release;
  static TestPackages.Identity stranger;
  @TempDir Path dir;
  Path keys;
  Path staging;
  Path good;
  Map<String, Path> files;

  @BeforeAll
  static void identities() throws Exception {
    release = TestPackages.identity("release-2026");
    stranger = TestPackages.identity("stranger");
  }

  @BeforeEach
  void packageOfTwoBundles() throws Exception {
    keys = dir.resolve("keys");
    release.trust(keys);
    staging = Files.createDirectories(dir.resolve("staging"));
    Path a = dir.resolve("a.jar");
    Path b = dir.resolve("b.jar");
    Files.write(a, new byte[] {1, 2, 3, 4, 5});
    byte[] big = new byte[300_000];
    new java.util.Random(3).nextBytes(big);
    Files.write(b, big);
    Path index = dir.resolve("index.xml");
    Files.writeString(index, "<repository name='test'/>\n");
    files = Map.of("bundles/a.jar", a, "bundles/b.jar", b, "index.xml", index);
    good = dir.resolve("good.bwu");
    TestPackages.pack(good, files, release, Set.of());
  }

  private UpdatePackage.Verified verify(Path pkg, Set<String> revoked) throws Exception {
    UpdateKeys trusted = TestPackages.approved(() -> UpdateKeys.load(List.of(keys)));
    return TestPackages.approved(() -> UpdatePackage.verify(pkg, trusted, revoked, staging));
  }

  /** Copies the package, changing each entry's bytes as {@code change} says. */
  private Path rewrite(String name, java.util.function.BiFunction<String, byte[], byte[]> change)
      throws Exception {
    Path out = dir.resolve(name);
    try (ZipFile in = new ZipFile(good.toFile());
        ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
      for (ZipEntry e : java.util.Collections.list(in.entries())) {
        byte[] bytes;
        try (InputStream s = in.getInputStream(e)) {
          bytes = s.readAllBytes();
        }
        byte[] changed = change.apply(e.getName(), bytes);
        if (changed != null) {
          zip.putNextEntry(new ZipEntry(e.getName()));
          zip.write(changed);
          zip.closeEntry();
        }
      }
    }
    return out;
  }

  private static UnaryOperator<byte[]> flip(int at) {
    return b -> {
      byte[] c = b.clone();
      c[at % c.length] ^= 0x01;
      return c;
    };
  }

  @Test
  void aGoodPackageVerifiesAndIsStagedWhole() throws Exception {
    UpdatePackage.Verified v = verify(good, Set.of());
    assertThat(v.ecdsaSigner()).isEqualTo("release-2026");
    assertThat(v.lmsSigner()).isEqualTo("release-2026");
    assertThat(v.manifest().version()).isEqualTo(Version.parseVersion("0.2.0"));
    assertThat(v.manifest().appliesTo(Version.parseVersion("0.1.0"))).isTrue();
    assertThat(v.manifest().appliesTo(Version.parseVersion("0.2.0"))).isFalse();
    for (Map.Entry<String, Path> f : files.entrySet()) {
      assertThat(staging.resolve(f.getKey())).hasSameBinaryContentAs(f.getValue());
    }
  }

  @Test
  void aByteFlippedInAFileOrInTheManifestIsRefused() throws Exception {
    Path file =
        rewrite("file.bwu", (n, b) -> n.equals("bundles/b.jar") ? flip(150_000).apply(b) : b);
    assertThatThrownBy(() -> verify(file, Set.of()))
        .hasMessageContaining("'bundles/b.jar' does not match its SHA-384");
    assertThat(staging).isEmptyDirectory();

    Path manifest =
        rewrite("manifest.bwu", (n, b) -> n.equals("manifest.json") ? flip(40).apply(b) : b);
    assertThatThrownBy(() -> verify(manifest, Set.of()))
        .hasMessageContaining("ECDSA signature does not verify with any trusted key");

    Path signature =
        rewrite(
            "signature.bwu",
            (n, b) -> n.equals(UpdatePackage.LMS_SIGNATURE) ? flip(b.length - 20).apply(b) : b);
    assertThatThrownBy(() -> verify(signature, Set.of())).hasMessageContaining("LMS signature");
  }

  @Test
  void aPackageSignedByAnotherKeyOrMissingASignatureIsRefused() throws Exception {
    Path foreign = dir.resolve("foreign.bwu");
    TestPackages.pack(foreign, files, stranger, Set.of());
    assertThatThrownBy(() -> verify(foreign, Set.of()))
        .hasMessageContaining("does not verify with any trusted key");

    Path noLms = rewrite("no-lms.bwu", (n, b) -> n.equals(UpdatePackage.LMS_SIGNATURE) ? null : b);
    assertThatThrownBy(() -> verify(noLms, Set.of()))
        .hasMessage("the package has no LMS signature");
    Path noEcdsa =
        rewrite("no-ecdsa.bwu", (n, b) -> n.equals(UpdatePackage.ECDSA_SIGNATURE) ? null : b);
    assertThatThrownBy(() -> verify(noEcdsa, Set.of()))
        .hasMessage("the package has no ECDSA signature");
  }

  @Test
  void aRevokedKeyTrustsNothing() throws Exception {
    String id = UpdateKeys.id(release.ecdsa().getPublic().getEncoded());
    assertThatThrownBy(() -> verify(good, Set.of(id)))
        .hasMessageContaining("ECDSA signature was made by a revoked key");
  }

  @Test
  void aFileOutsideTheManifestAPathEscapeAndAnArchiveBombAreRefused() throws Exception {
    Path extra = dir.resolve("extra.bwu");
    Files.copy(good, extra);
    try (java.nio.file.FileSystem zip = java.nio.file.FileSystems.newFileSystem(extra, Map.of())) {
      Files.write(zip.getPath("bundles/evil.jar"), new byte[] {6});
    }
    assertThatThrownBy(() -> verify(extra, Set.of()))
        .hasMessageContaining("'bundles/evil.jar', which its manifest does not list");

    Path escape = rewrite("escape.bwu", (n, b) -> b);
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(escape))) {
      try (ZipFile in = new ZipFile(good.toFile())) {
        for (ZipEntry e : java.util.Collections.list(in.entries())) {
          zip.putNextEntry(new ZipEntry(e.getName()));
          in.getInputStream(e).transferTo(zip);
          zip.closeEntry();
        }
      }
      zip.putNextEntry(new ZipEntry("bundles/../../etc/cron.d/evil"));
      zip.write(new byte[] {7});
      zip.closeEntry();
    }
    assertThatThrownBy(() -> verify(escape, Set.of())).hasMessageContaining("leaves its folder");
    assertThat(dir.resolve("etc")).doesNotExist();

    // 1 GiB of zeroes in place of a 5-byte bundle: a few MB compressed, stopped at byte 6.
    Path bomb = dir.resolve("bomb.bwu");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(bomb));
        ZipFile in = new ZipFile(good.toFile())) {
      for (ZipEntry e : java.util.Collections.list(in.entries())) {
        zip.putNextEntry(new ZipEntry(e.getName()));
        if (e.getName().equals("bundles/a.jar")) {
          byte[] zeroes = new byte[1 << 20];
          for (int i = 0; i < 1024; i++) {
            zip.write(zeroes);
          }
        } else {
          in.getInputStream(e).transferTo(zip);
        }
        zip.closeEntry();
      }
    }
    assertThat(Files.size(bomb)).isLessThan(8L << 20);
    assertThatThrownBy(() -> verify(bomb, Set.of()))
        .hasMessageContaining("'bundles/a.jar' is bigger than the 5 bytes its manifest gives it");
    assertThat(staging).isEmptyDirectory();
  }

  @Test
  void aFileTheManifestListsButThePackageLacksIsRefused() throws Exception {
    Path lacking = rewrite("lacking.bwu", (n, b) -> n.equals("index.xml") ? null : b);
    assertThatThrownBy(() -> verify(lacking, Set.of()))
        .hasMessageContaining("lists 'index.xml', which the package does not hold");
  }

  @Test
  void somethingThatIsNoPackageIsRefusedInWords() throws Exception {
    Path junk = dir.resolve("junk.bwu");
    Files.writeString(junk, "not a zip");
    assertThatThrownBy(() -> verify(junk, Set.of()))
        .hasMessageContaining("is not an update package");
  }
}
