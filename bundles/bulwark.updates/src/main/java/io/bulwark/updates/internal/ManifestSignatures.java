package io.bulwark.updates.internal;

import java.util.Collection;
import java.util.Set;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.operator.OperatorCreationException;

/**
 * The two detached CMS signatures (RFC 5652 SignedData without its content) over a manifest's
 * bytes: one by an ECDSA P-384 key with SHA-384, one by an HSS/LMS key. Each must hold exactly one
 * signer whose signature verifies with a trusted, unrevoked key of its kind; the signed attributes'
 * message digest ties it to the manifest's exact bytes.
 */
final class ManifestSignatures {
  static final int MAX_BYTES = 64 * 1024;

  private ManifestSignatures() {}

  /** Returns true if {@code signer}'s signature verifies with {@code key}. */
  private static boolean verifies(SignerInformation signer, UpdateKeys.Key key) {
    try {
      return signer.verify(
          new JcaSimpleSignerInfoVerifierBuilder().setProvider("BCFIPS").build(key.key()));
    } catch (CMSException | OperatorCreationException | RuntimeException e) {
      return false; // a digest mismatch, or a signature by another key
    }
  }

  /**
   * Returns the name of the trusted key that made {@code signature} over {@code manifest}.
   *
   * @throws IllegalArgumentException saying why it does not verify
   */
  static String verify(
      byte[] manifest,
      byte[] signature,
      UpdateKeys.Kind kind,
      UpdateKeys keys,
      Set<String> revoked) {
    if (signature == null || signature.length == 0) {
      throw new IllegalArgumentException("the package has no " + kind.name() + " signature");
    }
    if (signature.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          "the " + kind.name() + " signature is " + signature.length + " bytes: not a signature");
    }
    Collection<SignerInformation> signers;
    try {
      CMSSignedData signed = new CMSSignedData(new CMSProcessableByteArray(manifest), signature);
      // a ContentInfo of another content type parses, and holds no SignedData
      signers = signed.getSignerInfos().getSigners();
    } catch (CMSException | RuntimeException e) {
      throw new IllegalArgumentException(
          "the " + kind.name() + " signature is not CMS SignedData: " + e.getMessage());
    }
    if (signers.size() != 1) {
      throw new IllegalArgumentException(
          "the " + kind.name() + " signature has " + signers.size() + " signers; one is read");
    }
    SignerInformation signer = signers.iterator().next();
    var candidates = keys.trusted(kind, revoked);
    for (UpdateKeys.Key k : candidates) {
      if (verifies(signer, k)) {
        return k.name();
      }
    }
    boolean byRevoked =
        keys.keys().stream()
            .filter(k -> k.kind() == kind && revoked.contains(k.id()))
            .anyMatch(k -> verifies(signer, k));
    throw new IllegalArgumentException(
        byRevoked
            ? "the " + kind.name() + " signature was made by a revoked key"
            : candidates.isEmpty()
                ? "no trusted, unrevoked " + kind.name() + " update key: nothing can be verified"
                : "the "
                    + kind.name()
                    + " signature does not verify with any trusted key"
                    + " (the manifest was changed, or it was signed by another key)");
  }
}
