package io.bulwark.lib.pki;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;

/** ECDSA P-384 keys of the FIPS module: the only kind the agent channel issues and accepts. */
public final class EcKeys {
  /** The curve, by its SEC name. */
  public static final String CURVE = "secp384r1";

  /** The signature algorithm of certificates, requests and signed messages. */
  public static final String SIGNATURE = "SHA384withECDSA";

  private EcKeys() {}

  /**
   * Generates a P-384 key pair with {@code random} (the module's DRBG).
   *
   * @throws IllegalStateException if the FIPS module refuses
   */
  public static KeyPair generate(SecureRandom random) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "BCFIPS");
      generator.initialize(new ECGenParameterSpec(CURVE), random);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the FIPS module could not generate an ECDSA P-384 key: " + e.getMessage(), e);
    }
  }

  /** Returns true if {@code key} is an EC key on P-384 (384-bit field). */
  public static boolean isP384(PublicKey key) {
    return key instanceof ECPublicKey ec
        && ec.getParams().getCurve().getField().getFieldSize() == 384;
  }
}
