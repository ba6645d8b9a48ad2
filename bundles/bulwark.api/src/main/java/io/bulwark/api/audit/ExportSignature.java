package io.bulwark.api.audit;

import java.util.Objects;

/**
 * The detached signature of one audit export: how many records and bytes were exported, the
 * signature algorithm ({@code SHA384withECDSA}), the signature over exactly the exported bytes
 * (DER, as {@code openssl dgst -sha384 -verify} reads it) and the public key that checks it, as
 * PEM. Returned to the caller of {@link AuditExport}.
 */
public record ExportSignature(
    ExportFormat format,
    long records,
    long bytes,
    String algorithm,
    byte[] signature,
    String publicKeyPem) {

  public ExportSignature {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(algorithm, "algorithm");
    signature = Objects.requireNonNull(signature, "signature").clone();
    Objects.requireNonNull(publicKeyPem, "publicKeyPem");
  }

  /** Returns a copy of the DER signature. */
  @Override
  public byte[] signature() {
    return signature.clone();
  }
}
