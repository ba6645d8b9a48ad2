package io.bulwark.audit.internal;

import io.bulwark.api.audit.ExportFormat;
import io.bulwark.api.audit.ExportSignature;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;

/**
 * Writes an export of the audit log (its first {@code end} bytes) while signing exactly the bytes
 * written with the export signing key (SHA384withECDSA). JSON Lines are the stored bytes as they
 * are; CSV is a header and one row per line. Failures to write to the caller's stream come out as
 * {@link UncheckedIOException}; failures to read the log as {@link IOException}.
 */
final class SignedExport {
  private final Signature signature;
  private final OutputStream out;
  private long bytes;

  private SignedExport(KeyPair keys, OutputStream out) {
    this.signature = FipsCrypto.signature();
    try {
      signature.initSign(keys.getPrivate(), FipsCrypto.drbg());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the audit signing key is refused: " + e.getMessage(), e);
    }
    this.out = out;
  }

  static ExportSignature write(
      ExportFormat format, FileChannel log, long end, KeyPair keys, OutputStream out)
      throws IOException {
    SignedExport export = new SignedExport(keys, out);
    long records =
        format == ExportFormat.JSONL ? export.copyLines(log, end) : export.csvRows(log, end);
    try {
      return new ExportSignature(
          format,
          records,
          export.bytes,
          FipsCrypto.SIGNATURE_ALGORITHM,
          export.signature.sign(),
          PublicKeyPem.encode(keys.getPublic()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the audit export: " + e.getMessage(), e);
    }
  }

  private long copyLines(FileChannel log, long end) throws IOException {
    byte[] chunk = new byte[64 * 1024];
    long records = 0;
    long position = 0;
    while (position < end) {
      ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, end - position));
      int n = log.read(buffer, position);
      if (n < 0) {
        break;
      }
      for (int i = 0; i < n; i++) {
        if (chunk[i] == '\n') {
          records++;
        }
      }
      emit(chunk, n);
      position += n;
    }
    return records;
  }

  private long csvRows(FileChannel log, long end) throws IOException {
    byte[] header = CsvRow.header();
    emit(header, header.length);
    long records = 0;
    LogLines lines = new LogLines(log, 0, end);
    for (LogLines.Line line = lines.next(); line != null; line = lines.next()) {
      byte[] row;
      try {
        row =
            line.oversized()
                ? CsvRow.unreadable(line.offset(), null, 0)
                : CsvRow.of(StoredRecord.parse(line.bytes(), line.length()));
      } catch (MalformedRecordException e) {
        row = CsvRow.unreadable(line.offset(), line.bytes(), line.length());
      }
      emit(row, row.length);
      records++;
    }
    return records;
  }

  private void emit(byte[] data, int length) {
    try {
      signature.update(data, 0, length);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the audit export: " + e.getMessage(), e);
    }
    try {
      out.write(data, 0, length);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the audit export: " + e.getMessage(), e);
    }
    bytes += length;
  }
}
