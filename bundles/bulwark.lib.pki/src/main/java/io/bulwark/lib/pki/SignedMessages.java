package io.bulwark.lib.pki;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The signature every request on the agent channel and every answer carries, on top of mutual TLS,
 * so that each side can keep (and audit) proof of what the other asked or answered: SHA384withECDSA
 * with the sender's certificate key over a canonical text. A request's text binds the method, the
 * path, the time, a fresh nonce and the SHA-384 of the body; an answer's binds the status, the
 * request's nonce, the time and the SHA-384 of its body.
 *
 * <pre>
 * bulwark-agent-request-v1 \n METHOD \n /path \n epoch-millis \n nonce \n sha384-hex(body)
 * bulwark-agent-answer-v1 \n status \n request-nonce \n epoch-millis \n sha384-hex(body)
 * </pre>
 *
 * The three values travel in the headers {@value #DATE}, {@value #NONCE} and {@value #SIGNATURE}
 * (Base64 of the DER signature).
 */
public final class SignedMessages {
  /** Header with the signing time, milliseconds since the epoch. */
  public static final String DATE = "Bulwark-Date";

  /** Header with the request's nonce (an answer repeats it). */
  public static final String NONCE = "Bulwark-Nonce";

  /** Header with the Base64 DER signature. */
  public static final String SIGNATURE = "Bulwark-Signature";

  /** How far a request's time may be from the receiver's clock. */
  public static final Duration SKEW = Duration.ofMinutes(5);

  private SignedMessages() {}

  /** Returns the canonical text of a request. */
  public static String requestText(
      String method, String path, long millis, String nonce, byte[] body) {
    return "bulwark-agent-request-v1\n"
        + method
        + "\n"
        + path
        + "\n"
        + millis
        + "\n"
        + nonce
        + "\n"
        + sha384(body);
  }

  /** Returns the canonical text of an answer. */
  public static String answerText(int status, String requestNonce, long millis, byte[] body) {
    return "bulwark-agent-answer-v1\n"
        + status
        + "\n"
        + requestNonce
        + "\n"
        + millis
        + "\n"
        + sha384(body);
  }

  /** Returns a fresh nonce: 16 random bytes in hex. */
  public static String nonce(SecureRandom random) {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** Signs {@code text}; returns the Base64 DER signature. */
  public static String sign(PrivateKey key, String text, SecureRandom random) {
    try {
      Signature s = Signature.getInstance(EcKeys.SIGNATURE, "BCFIPS");
      s.initSign(key, random);
      s.update(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the FIPS module could not sign: " + e.getMessage(), e);
    }
  }

  /** Returns true if {@code signature} (Base64 DER) is {@code key}'s signature of {@code text}. */
  public static boolean verify(PublicKey key, String text, String signature) {
    if (signature == null || signature.isBlank()) {
      return false;
    }
    try {
      Signature s = Signature.getInstance(EcKeys.SIGNATURE, "BCFIPS");
      s.initVerify(key);
      s.update(text.getBytes(StandardCharsets.UTF_8));
      return s.verify(Base64.getDecoder().decode(signature.trim()));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Returns true if {@code millis} is within {@link #SKEW} of {@code now}. */
  public static boolean fresh(long millis, Instant now) {
    return Math.abs(now.toEpochMilli() - millis) <= SKEW.toMillis();
  }

  /** Returns the SHA-384 of {@code body} (empty if null) in lower-case hex. */
  public static String sha384(byte[] body) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-384", "BCFIPS")
                  .digest(body == null ? new byte[0] : body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the FIPS module has no SHA-384: " + e.getMessage(), e);
    }
  }
}
