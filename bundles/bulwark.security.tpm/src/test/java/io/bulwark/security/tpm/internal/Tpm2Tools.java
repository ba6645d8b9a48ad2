package io.bulwark.security.tpm.internal;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs tpm2-tools commands against a test's software TPM, in a working folder. Tests that use it
 * are skipped, with a message, when tpm2-tools is not installed.
 */
final class Tpm2Tools {
  private final String tcti;
  private final Path workDir;

  Tpm2Tools(String tcti, Path workDir) {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/tpm2_unseal")),
        "tpm2-tools is not installed (/usr/bin/tpm2_unseal): install tpm2-tools for the cross-checks");
    this.tcti = tcti;
    this.workDir = workDir;
  }

  /**
   * Runs {@code tpm2_<tool> args...}, then flushes the transient objects it left loaded (there is
   * no resource manager in front of swtpm); returns its output or fails with it.
   */
  String run(String tool, String... args) throws IOException, InterruptedException {
    Result result = attempt(tool, args);
    Result flushed = attempt("flushcontext", "-t");
    if (flushed.exitCode != 0) {
      throw new AssertionError("tpm2_flushcontext -t failed: " + flushed.output);
    }
    if (result.exitCode != 0) {
      throw new AssertionError(
          "tpm2_" + tool + " failed (" + result.exitCode + "): " + result.output);
    }
    return result.output;
  }

  /** Runs {@code tpm2_<tool> args...} and returns its exit code and output. */
  Result attempt(String tool, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("/usr/bin/tpm2_" + tool));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    builder.environment().put("TPM2TOOLS_TCTI", tcti);
    builder.environment().put("TSS2_LOG", "all+none");
    Path output = Files.createTempFile(workDir, tool, ".out");
    Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      throw new AssertionError("tpm2_" + tool + " did not finish within 20 s");
    }
    return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  record Result(int exitCode, String output) {}
}
