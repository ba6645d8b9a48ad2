package io.bulwark.api.audit;

import java.io.OutputStream;
import java.nio.file.Path;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Exports the whole audit log for an auditor, signed with the appliance's audit signing key.
 * Provided by the audit bundle next to {@link io.bulwark.api.audit.AuditLog}; used by the web
 * bundle's export route. Thread-safe; appends go on while an export runs (the export holds the
 * records up to the moment it started). Calls block on disk I/O: never call them on an event loop.
 */
@ProviderType
public interface AuditExport {

  /**
   * Writes the log in {@code format} to {@code out} (which is not closed) and returns the detached
   * signature over exactly the bytes written.
   *
   * @throws AuditUnavailableException if the log cannot be read, or the signing key is unavailable
   * @throws java.io.UncheckedIOException if writing to {@code out} fails
   */
  ExportSignature export(ExportFormat format, OutputStream out);

  /**
   * Writes the log in {@code format} into {@code folder} (created if missing) as {@code audit-<UTC
   * time><extension>}, its signature beside it ({@code <file>.sig}, DER) and the public key ({@code
   * <file>.pem}); returns the path of the data file.
   *
   * @throws AuditUnavailableException if the log cannot be read, or the signing key is unavailable
   * @throws java.io.UncheckedIOException if the files cannot be written
   */
  Path exportTo(ExportFormat format, Path folder);

  /**
   * Signs a document another bundle hands an auditor (a compliance checklist, say) with the same
   * key as the log's exports: {@code SHA384withECDSA} over exactly {@code document}, DER, checked
   * with {@link #publicKeyPem()} as {@code openssl dgst -sha384 -verify key.pem -signature f.sig f}
   * does. Blocks on the secret store the first time.
   *
   * @throws AuditUnavailableException if the signing key is unavailable
   * @since 1.2
   */
  byte[] sign(byte[] document);

  /**
   * Returns the public key that checks export signatures, as PEM ({@code -----BEGIN PUBLIC
   * KEY-----}); the key pair is made on first use.
   *
   * @throws AuditUnavailableException if the signing key is unavailable
   */
  String publicKeyPem();
}
