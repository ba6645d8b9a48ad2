package io.bulwark.provisioning.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/** Signed images for the tests, made as an admin makes them with openssl (P-384, SHA-384). */
final class Images {
  private Images() {}

  static KeyPair keys() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp384r1"));
    return g.generateKeyPair();
  }

  static String pem(PublicKey key) {
    return "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded())
        + "\n-----END PUBLIC KEY-----\n";
  }

  /** Writes images/NAME.img and its signature, and the key as keys/site.pem. */
  static void publish(Path dir, String name, byte[] content, KeyPair keys) throws Exception {
    Files.createDirectories(dir.resolve("images"));
    Files.createDirectories(dir.resolve("keys"));
    Files.write(dir.resolve("images/" + name + ".img"), content);
    Files.write(dir.resolve("images/" + name + ".img.sig"), sign(content, keys));
    if (!Files.exists(dir.resolve("keys/site.pem"))) {
      Files.writeString(dir.resolve("keys/site.pem"), pem(keys.getPublic()));
    }
  }

  /** A detached signature as {@code openssl dgst -sha384 -sign} makes one. */
  static byte[] sign(byte[] content, KeyPair keys) throws Exception {
    Signature s = Signature.getInstance("SHA384withECDSA");
    s.initSign(keys.getPrivate());
    s.update(content);
    return s.sign();
  }
}
