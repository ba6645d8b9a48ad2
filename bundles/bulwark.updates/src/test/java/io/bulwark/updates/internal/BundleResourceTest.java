package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.jar.Attributes;
import org.junit.jupiter.api.Test;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.Version;
import org.osgi.resource.Capability;
import org.osgi.resource.Requirement;

class BundleResourceTest {

  private static Attributes manifest(String... kv) {
    Attributes a = new Attributes();
    for (int i = 0; i < kv.length; i += 2) {
      a.putValue(kv[i], kv[i + 1]);
    }
    return a;
  }

  @Test
  void aBundleManifestBecomesTheCapabilitiesAndRequirementsTheFrameworkSees() throws Exception {
    BundleResource r =
        BundleResource.of(
            manifest(
                "Bundle-SymbolicName", "bulwark.scheduler.pbs;singleton:=true",
                "Bundle-Version", "0.2.0",
                "Export-Package",
                    "io.bulwark.pbs;version=\"1.1\";uses:=\"io.bulwark.api\",io.bulwark.pbs.x",
                "Import-Package",
                    "io.bulwark.api.remediation;version=\"[1.0,2)\",org.slf4j;resolution:=optional",
                "Require-Capability",
                    "osgi.extender;filter:=\"(&(osgi.extender=osgi.component)(version>=1.5.0))\","
                        + "osgi.service;filter:=\"(objectClass=a.B)\";effective:=active",
                "Provide-Capability",
                    "osgi.service;objectClass:List<String>=\"a.B,a.C\";uses:=\"a\""));
    assertThat(r.symbolicName()).isEqualTo("bulwark.scheduler.pbs");
    assertThat(r.version()).isEqualTo(new Version(0, 2, 0));
    List<Capability> pkgs = r.getCapabilities(BundleResource.PACKAGE);
    assertThat(pkgs).hasSize(2);
    assertThat(pkgs.get(0).getAttributes())
        .containsEntry("osgi.wiring.package", "io.bulwark.pbs")
        .containsEntry("version", new Version(1, 1, 0))
        .containsEntry("bundle-symbolic-name", "bulwark.scheduler.pbs");
    assertThat(pkgs.get(0).getDirectives()).containsEntry("uses", "io.bulwark.api");
    assertThat(pkgs.get(1).getAttributes()).containsEntry("version", Version.emptyVersion);
    List<Requirement> imports = r.getRequirements(BundleResource.PACKAGE);
    assertThat(imports).hasSize(2);
    String filter = imports.get(0).getDirectives().get("filter");
    assertThat(
            FrameworkUtil.createFilter(filter)
                .matches(
                    java.util.Map.of(
                        "osgi.wiring.package",
                        "io.bulwark.api.remediation",
                        "version",
                        new Version(1, 3, 0))))
        .isTrue();
    assertThat(
            FrameworkUtil.createFilter(filter)
                .matches(
                    java.util.Map.of(
                        "osgi.wiring.package",
                        "io.bulwark.api.remediation",
                        "version",
                        new Version(2, 0, 0))))
        .isFalse();
    assertThat(imports.get(1).getDirectives()).containsEntry("resolution", "optional");
    assertThat(r.getRequirements("osgi.service").get(0).getDirectives())
        .containsEntry("effective", "active");
    assertThat(r.getCapabilities("osgi.service").get(0).getAttributes().get("objectClass"))
        .isEqualTo(List.of("a.B", "a.C"));
    assertThat(r.getCapabilities(BundleResource.IDENTITY).get(0).getAttributes())
        .containsEntry("type", "osgi.bundle");
  }

  @Test
  void aJarWithoutASymbolicNameOrWithABrokenHeaderIsRefusedInWords() {
    assertThatThrownBy(() -> BundleResource.of(manifest("Bundle-Version", "1.0")))
        .hasMessageContaining("no Bundle-SymbolicName");
    assertThatThrownBy(
            () ->
                BundleResource.of(
                    manifest("Bundle-SymbolicName", "a", "Import-Package", "x;version=\"[1,2)")))
        .hasMessageContaining("unclosed quote");
    assertThatThrownBy(
            () ->
                BundleResource.of(
                    manifest(
                        "Bundle-SymbolicName", "a", "Import-Package", "x;version=\"[one,two)\"")))
        .hasMessageContaining("no OSGi version range");
  }

  @Test
  void theIndexListsEachBundleWithItsContentAndReadsBack() throws Exception {
    BundleResource r =
        BundleResource.of(
            manifest(
                "Bundle-SymbolicName", "a<b",
                "Bundle-Version", "1.2.3",
                "Export-Package", "p",
                "Provide-Capability", "osgi.service;objectClass:List<String>=\"x.Y\""));
    byte[] xml =
        RepositoryIndex.write(
            "test", 7, List.of(new RepositoryIndex.Entry("bundles/a.jar", r, "ab".repeat(32), 42)));
    String text = new String(xml, StandardCharsets.UTF_8);
    assertThat(text)
        .contains("xmlns=\"http://www.osgi.org/xmlns/repository/v1.0.0\"")
        .contains("a&lt;b")
        .contains("namespace=\"osgi.wiring.package\"");
    List<RepositoryIndex.Listed> back = RepositoryIndex.read(xml);
    assertThat(back)
        .containsExactly(
            new RepositoryIndex.Listed(
                "a<b", new Version(1, 2, 3), "bundles/a.jar", "ab".repeat(32), 42));
  }

  @Test
  void anIndexWithADoctypeOrAnotherRootIsRefused() {
    assertThatThrownBy(
            () ->
                RepositoryIndex.read(
                    ("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                            + "<repository xmlns=\"http://www.osgi.org/xmlns/repository/v1.0.0\">&x;</repository>")
                        .getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("not well-formed");
    assertThatThrownBy(() -> RepositoryIndex.read("<index/>".getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("not an OSGi repository index");
  }
}
