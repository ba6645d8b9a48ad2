package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.ExportFormat;
import io.bulwark.api.audit.ExportSignature;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Writes an audit export as three files in a folder: the data ({@code audit-<UTC time>.jsonl} or
 * {@code .csv}), its detached signature beside it ({@code <file>.sig}, DER) and the public key that
 * checks it ({@code <file>.pem}), the set the offline verifier reads.
 */
final class ExportFiles {
  private static final System.Logger LOG = System.getLogger(ExportFiles.class.getName());
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private ExportFiles() {}

  static Path write(AuditExport source, ExportFormat format, Path folder, Instant now) {
    String name = "audit-" + TIME.format(now);
    try {
      Files.createDirectories(folder);
      Path data = folder.resolve(name + format.extension());
      for (int n = 2; Files.exists(data); n++) {
        data = folder.resolve(name + "-" + n + format.extension());
      }
      ExportSignature signature;
      try (OutputStream out =
          new BufferedOutputStream(Files.newOutputStream(data, StandardOpenOption.CREATE_NEW))) {
        signature = source.export(format, out);
      }
      Files.write(data.resolveSibling(data.getFileName() + ".sig"), signature.signature());
      Files.writeString(
          data.resolveSibling(data.getFileName() + ".pem"),
          signature.publicKeyPem(),
          StandardCharsets.US_ASCII);
      LOG.log(
          Level.INFO,
          "Exported {0} audit records as {1} to {2}, signed ({3})",
          signature.records(),
          format,
          data,
          signature.algorithm());
      return data;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the audit export into " + folder + ": " + e.getMessage(), e);
    }
  }
}
