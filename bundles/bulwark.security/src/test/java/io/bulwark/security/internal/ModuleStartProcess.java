package io.bulwark.security.internal;

/**
 * A JVM that tries to start the FIPS module and prints the outcome; exit status 3 when refused. Run
 * by {@link FipsCryptoModuleTest} without the approved-only flag.
 */
public final class ModuleStartProcess {
  private ModuleStartProcess() {}

  /** Starts the module and prints "started" or "refused: message". */
  public static void main(String[] args) {
    String outcome = start();
    System.out.println(outcome);
    System.exit(outcome.startsWith("started") ? 0 : 3);
  }

  static String start() {
    try {
      FipsCryptoModule module = new FipsCryptoModule();
      return "started " + module.status().version().charAt(0);
    } catch (IllegalStateException e) {
      return "refused: " + e.getMessage();
    }
  }
}
