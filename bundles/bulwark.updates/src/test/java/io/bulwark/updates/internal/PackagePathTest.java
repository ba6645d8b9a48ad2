package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PackagePathTest {
  @Test
  void onlyPlainRelativePathsInThePackagesFoldersAreFiles() {
    assertThat(PackagePath.problem("bundles/bulwark.web-0.2.0.jar")).isNull();
    assertThat(PackagePath.problem("index.xml")).isNull();
    assertThat(PackagePath.problem("images/bootenv/vmlinuz")).isNull();
    assertThat(PackagePath.problem("bundles/../../etc/passwd")).contains("leaves its folder");
    assertThat(PackagePath.problem("/etc/passwd")).contains("not a relative");
    assertThat(PackagePath.problem("bundles\\a.jar")).contains("not a relative");
    assertThat(PackagePath.problem("C:/a.jar")).contains("not a relative");
    assertThat(PackagePath.problem("bundles//a.jar")).contains("empty, hidden");
    assertThat(PackagePath.problem("bundles/.hidden")).contains("empty, hidden");
    assertThat(PackagePath.problem("bundles/a\u0000.jar")).contains("bundles/a?.jar");
    assertThat(PackagePath.problem("etc/a.jar")).contains("not in bundles/");
    assertThat(PackagePath.problem("notes.txt")).contains("not in bundles/");
    assertThat(PackagePath.problem("bundles/" + "a".repeat(300))).contains("characters");
    assertThat(PackagePath.problem("")).isEqualTo("an empty path");
  }
}
