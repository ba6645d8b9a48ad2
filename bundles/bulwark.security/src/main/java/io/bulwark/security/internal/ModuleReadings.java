package io.bulwark.security.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.crypto.fips.FipsStatus;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;

/**
 * What the BouncyCastle FIPS module reports about itself at start: whether its power-on self-tests
 * passed (and its status message), whether approved-only mode is set globally (the system property)
 * and in force on a new thread, and its version. {@link #requireSound()} turns a failed reading
 * into the error that stops the appliance.
 *
 * @param selfTestsPassed true if {@code FipsStatus.isReady()} returned true
 * @param selfTestMessage the module's status message, or the error the self-test raised
 * @param approvedOnlyProperty true if {@value #APPROVED_ONLY_PROPERTY} is {@code true}
 * @param approvedOnlyOnNewThread true if a thread started now runs in approved-only mode
 * @param version the module version, e.g. {@code 2.1.0}
 */
record ModuleReadings(
    boolean selfTestsPassed,
    String selfTestMessage,
    boolean approvedOnlyProperty,
    boolean approvedOnlyOnNewThread,
    String version) {

  /** The system property that puts the FIPS module in approved-only mode for every thread. */
  static final String APPROVED_ONLY_PROPERTY = "org.bouncycastle.fips.approved_only";

  /** Reads the module's state; {@code provider} must already be constructed. */
  static ModuleReadings read(BouncyCastleFipsProvider provider) {
    boolean ready;
    String message;
    try {
      ready = FipsStatus.isReady();
      message = FipsStatus.getStatusMessage();
    } catch (RuntimeException | Error e) {
      ready = false;
      message = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
    return new ModuleReadings(
        ready,
        message,
        Boolean.getBoolean(APPROVED_ONLY_PROPERTY),
        probeNewThread(),
        versionOf(provider));
  }

  /**
   * Throws if the module must not be used.
   *
   * @throws IllegalStateException saying exactly what is wrong and what to do
   */
  void requireSound() {
    if (!selfTestsPassed) {
      throw new IllegalStateException(
          "the FIPS module failed its self-test: "
              + selfTestMessage
              + "; Bulwark refuses to start. Check that bc-fips is the unmodified jar on the"
              + " framework class path (-runpath), not an OSGi bundle");
    }
    if (!approvedOnlyProperty) {
      throw new IllegalStateException(
          "approved-only mode is off: start the JVM with -D" + APPROVED_ONLY_PROPERTY + "=true");
    }
    if (!approvedOnlyOnNewThread) {
      throw new IllegalStateException(
          "approved-only mode is off on new threads although -D"
              + APPROVED_ONLY_PROPERTY
              + "=true is set: the property must be set before the FIPS module is first loaded,"
              + " on the JVM command line");
    }
  }

  private static boolean probeNewThread() {
    AtomicBoolean approved = new AtomicBoolean();
    Thread probe =
        new Thread(
            () -> approved.set(CryptoServicesRegistrar.isInApprovedOnlyMode()),
            "bulwark-fips-mode-probe");
    probe.start();
    try {
      probe.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while checking the FIPS module's approved-only mode", e);
    }
    return approved.get();
  }

  /** Returns the version from the provider's description ("... v2.1.0"), else its short form. */
  static String versionOf(BouncyCastleFipsProvider provider) {
    String info = provider.getInfo();
    int v = info.lastIndexOf(" v");
    if (v >= 0 && v + 2 < info.length()) {
      return info.substring(v + 2).strip();
    }
    return provider.getVersionStr();
  }
}
