package io.bulwark.updates.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code update-signature-required}: the update verifier, with the trusted keys and revocations in
 * effect now, refuses a package without signatures and one whose signatures are not CMS at all,
 * before staging anything. The packages are made in a temporary folder and removed.
 */
@Component(service = ComplianceCheck.class)
public final class SignatureRequiredCheck implements ComplianceCheck {
  static final String ID = "update-signature-required";
  private final UpdateService updates;

  @Activate
  public SignatureRequiredCheck(@Reference UpdateService updates) {
    this.updates = updates;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "Only update packages signed with the trusted update keys are installed";
  }

  @Override
  public CheckResult run(Instant now) {
    try {
      return run(updates.keyFolders(), updates.revokedKeys(), now, updates::named);
    } catch (IOException e) {
      return CheckResult.notReviewed(
          ID, "the record of revoked update keys cannot be read: " + e.getMessage(), now);
    }
  }

  /**
   * Runs the check with the keys of {@code keyFolders}; {@code named} names the server's files in
   * the evidence as admins read them.
   */
  static CheckResult run(
      List<Path> keyFolders, Set<String> revoked, Instant now, UnaryOperator<String> named) {
    Map<String, String> evidence = new LinkedHashMap<>();
    Path folder = null;
    try {
      UpdateKeys keys = UpdateKeys.load(keyFolders);
      evidence.put("keyFolders", named.apply(keyFolders.toString()));
      evidence.put(
          "trustedEcdsaKeys",
          Integer.toString(keys.trusted(UpdateKeys.Kind.ECDSA, revoked).size()));
      evidence.put(
          "trustedLmsKeys", Integer.toString(keys.trusted(UpdateKeys.Kind.LMS, revoked).size()));
      evidence.put("revokedKeys", Integer.toString(revoked.size()));
      folder = Files.createTempDirectory("bulwark-compliance-update");
      List<String> accepted = new ArrayList<>();
      String unsigned = attempt(folder, "unsigned", Map.of(), keys, revoked, accepted);
      String forged =
          attempt(
              folder,
              "forged",
              Map.of(
                  UpdatePackage.ECDSA_SIGNATURE, "not a signature",
                  UpdatePackage.LMS_SIGNATURE, "not a signature"),
              keys,
              revoked,
              accepted);
      evidence.put("unsignedPackage", named.apply(unsigned));
      evidence.put("packageWithForgedSignatures", named.apply(forged));
      if (!accepted.isEmpty()) {
        return CheckResult.open(
            ID, "the verifier accepted " + String.join(" and ", accepted), evidence, now);
      }
      return CheckResult.met(
          ID,
          "the verifier refused a package without signatures and one with forged signatures",
          evidence,
          now);
    } catch (IOException e) {
      return CheckResult.notReviewed(
          ID, "could not make the test packages: " + e.getMessage(), now);
    } finally {
      if (folder != null) {
        try {
          UpdatePackage.clear(folder);
          Files.deleteIfExists(folder);
        } catch (IOException e) {
          // a temporary folder left behind: the system's cleaning removes it
        }
      }
    }
  }

  private static String attempt(
      Path folder,
      String name,
      Map<String, String> extra,
      UpdateKeys keys,
      Set<String> revoked,
      List<String> accepted)
      throws IOException {
    Path file = folder.resolve(name + ".bwu");
    try (OutputStream out = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(UpdatePackage.MANIFEST));
      zip.write(
          ("{\"format\":1,\"version\":\"99.0.0\",\"files\":[]}").getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      for (Map.Entry<String, String> e : extra.entrySet()) {
        zip.putNextEntry(new ZipEntry(e.getKey()));
        zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    Path staging = folder.resolve(name + "-staging");
    try {
      UpdatePackage.verify(file, keys, revoked, staging);
      accepted.add("the " + name + " package");
      return "accepted";
    } catch (IllegalArgumentException e) {
      return "refused: " + e.getMessage();
    } finally {
      UpdatePackage.clear(staging);
    }
  }
}
