package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditVerification;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Locale;

/**
 * The offline verifier of audit exports, for an auditor away from the appliance: {@code verify FILE
 * [--public-key PEM] [--signature SIG]} checks the hash chain of an exported JSON Lines file and,
 * given the public key, its detached signature ({@code FILE.sig} unless named). Prints "intact: N
 * records" (exit 0) or the first altered, missing, reordered or torn record (exit 1); exit 2 for a
 * usage or read error. The HMACs need the appliance's audit key and are not checked here. Run with
 * bc-fips, jackson-core, bulwark.api and this bundle on the class path.
 */
public final class AuditVerifyCommand {
  static final String USAGE =
      "usage: verify FILE [--public-key PEM] [--signature SIG]\n"
          + "  FILE  an audit export (.jsonl: chain and signature; .csv: signature only)\n"
          + "  PEM   the export's public key (FILE.pem beside it); SIG defaults to FILE.sig";

  private AuditVerifyCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command and returns its exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length < 2 || !args[0].equals("verify") || args.length % 2 != 0) {
      err.println(USAGE);
      return 2;
    }
    Path file = Path.of(args[1]);
    Path pem = null;
    Path sig = null;
    for (int i = 2; i < args.length; i += 2) {
      switch (args[i]) {
        case "--public-key" -> pem = Path.of(args[i + 1]);
        case "--signature" -> sig = Path.of(args[i + 1]);
        default -> {
          err.println("unknown option " + args[i] + "\n" + USAGE);
          return 2;
        }
      }
    }
    if (sig == null) {
      sig = file.resolveSibling(file.getFileName() + ".sig");
    }
    boolean csv = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
    if (csv && pem == null) {
      err.println("a CSV export is checked by its signature: give --public-key PEM\n" + USAGE);
      return 2;
    }
    try {
      FipsCrypto.install();
      Boolean signatureValid = pem == null ? null : signatureValid(file, sig, pem);
      if (csv) {
        return reportCsv(out, file, signatureValid);
      }
      AuditVerification verdict;
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        verdict = new ChainVerifier(null).check(channel, channel.size()).verdictWithTail();
      }
      return report(out, verdict, signatureValid, sig);
    } catch (IOException | IllegalArgumentException | IllegalStateException e) {
      err.println("cannot verify " + file + ": " + e.getMessage());
      return 2;
    }
  }

  private static int report(
      PrintStream out, AuditVerification verdict, Boolean signatureValid, Path sig) {
    int code;
    if (!verdict.intact()) {
      out.println(verdict.problem());
      code = 1;
    } else if (Boolean.FALSE.equals(signatureValid)) {
      out.println(
          "signature invalid: the file was changed after export, or was not signed with this key");
      code = 1;
    } else {
      out.println("intact: " + verdict.recordsChecked() + " records");
      code = 0;
    }
    out.println(
        "chain: "
            + (verdict.intact() ? "intact" : "broken")
            + " (sequence numbers and SHA-256 hashes checked)");
    out.println(
        signatureValid == null
            ? "signature: not checked (give --public-key PEM to check " + sig + ")"
            : "signature: "
                + (signatureValid ? "valid" : "INVALID")
                + " ("
                + FipsCrypto.SIGNATURE_ALGORITHM
                + ", "
                + sig
                + ")");
    out.println(
        "hmac: not checked: the HMACs need the appliance's audit key, which never leaves it"
            + " (AuditLog.verify() on the appliance checks them)");
    return code;
  }

  private static int reportCsv(PrintStream out, Path file, boolean signatureValid)
      throws IOException {
    if (!signatureValid) {
      out.println(
          "signature invalid: the file was changed after export, or was not signed with this key");
      return 1;
    }
    out.println(
        "signature valid: "
            + file
            + " ("
            + Files.size(file)
            + " bytes) is as exported; the chain is checked on the JSON Lines export");
    return 0;
  }

  private static boolean signatureValid(Path file, Path sig, Path pem) throws IOException {
    PublicKey key = PublicKeyPem.decode(Files.readString(pem, StandardCharsets.US_ASCII));
    byte[] signature = Files.readAllBytes(sig);
    Signature verifier = FipsCrypto.signature();
    try (InputStream in = Files.newInputStream(file)) {
      verifier.initVerify(key);
      byte[] chunk = new byte[64 * 1024];
      for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
        verifier.update(chunk, 0, n);
      }
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
