package io.bulwark.security.internal;

import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.SecretStore;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The admin plane's TLS identity: on first start an ECDSA P-384 key and a self-signed certificate
 * stored in a BCFKS keystore whose random password is a secret in the secret store; on later starts
 * that keystore. Serves a BCJSSE server context and key managers that always present the current
 * identity, and replaces it with an operator's certificate on {@link #importPem}.
 */
@Component(
    service = AdminTls.class,
    immediate = true,
    configurationPid = AdminTlsIdentity.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = TlsConfig.class)
public final class AdminTlsIdentity implements AdminTls {
  /** The configuration PID. */
  public static final String PID = "io.bulwark.security.tls";

  /** The name of the keystore password in the secret store. */
  static final String PASSWORD_SECRET = "tls.admin.keystore-password";

  static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
  static final List<String> CIPHER_SUITES =
      List.of(
          "TLS_AES_256_GCM_SHA384",
          "TLS_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");

  private static final Logger LOG = System.getLogger(AdminTlsIdentity.class.getName());
  private static final Duration RENEWAL_WARNING = Duration.ofDays(30);

  private final TlsOptions options;
  private final Clock clock;
  private final SecureRandom random;
  private final char[] password;
  private final CurrentKeyManager keyManager;
  private final KeyManagerFactory keyManagers;
  private final SSLContext context;
  private volatile ServerIdentity identity;

  /**
   * Loads or creates the identity.
   *
   * @throws IllegalArgumentException if a configuration property is invalid
   * @throws IllegalStateException if the keystore cannot be opened or written (the message says why
   *     and what to do)
   */
  @Activate
  public AdminTlsIdentity(
      @Reference CryptoModule crypto, @Reference SecretStore secrets, TlsConfig config) {
    this(crypto, secrets, TlsOptions.from(config), Clock.systemUTC());
  }

  AdminTlsIdentity(CryptoModule crypto, SecretStore secrets, TlsOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.random = crypto.random();
    this.password = keystorePassword(secrets, random);
    this.identity = loadOrCreate();
    warnIfExpiring(identity);
    this.keyManager = new CurrentKeyManager(identity, password);
    this.keyManagers = new AdminKeyManagerFactory(keyManager);
    try {
      this.context = SSLContext.getInstance("TLS", "BCJSSE");
      context.init(
          new KeyManager[] {keyManager}, new TrustManager[] {new NoClientCertificates()}, random);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the BCJSSE provider cannot create the admin TLS context: " + e.getMessage(), e);
    }
  }

  @Override
  public SSLContext sslContext() {
    return context;
  }

  @Override
  public KeyManagerFactory keyManagers() {
    return keyManagers;
  }

  @Override
  public List<String> protocols() {
    return PROTOCOLS;
  }

  @Override
  public List<String> cipherSuites() {
    return CIPHER_SUITES;
  }

  @Override
  public X509Certificate certificate() {
    return identity.certificate();
  }

  @Override
  public List<X509Certificate> certificateChain() {
    return identity.chain();
  }

  @Override
  public synchronized void importPem(String certificateChainPem, char[] privateKeyPem) {
    ServerIdentity imported = PemIdentity.parse(certificateChainPem, privateKeyPem);
    IdentityCheck.require(imported, clock.instant(), random);
    TlsKeyStore.save(options.keystore(), imported, password);
    keyManager.replace(imported, password);
    identity = imported;
    LOG.log(
        Level.INFO,
        "The admin TLS certificate was replaced: {0}, issued by {1}, valid until {2} ({3}"
            + " certificates in the chain); new connections use it",
        imported.certificate().getSubjectX500Principal().getName(),
        imported.certificate().getIssuerX500Principal().getName(),
        imported.certificate().getNotAfter().toInstant(),
        imported.chain().size());
  }

  /** Clears the keystore password from memory. */
  @Deactivate
  public void close() {
    Arrays.fill(password, '\0');
  }

  private ServerIdentity loadOrCreate() {
    if (Files.exists(options.keystore())) {
      ServerIdentity loaded = TlsKeyStore.load(options.keystore(), password);
      LOG.log(
          Level.INFO,
          "Admin TLS identity loaded from {0}: {1}, valid until {2}",
          options.keystore(),
          loaded.certificate().getSubjectX500Principal().getName(),
          loaded.certificate().getNotAfter().toInstant());
      return loaded;
    }
    ServerIdentity created =
        SelfSignedCertificate.generate(options.hostName(), clock.instant(), random);
    TlsKeyStore.save(options.keystore(), created, password);
    LOG.log(
        Level.WARNING,
        "Created a self-signed admin TLS certificate for {0} (ECDSA P-384, valid until {1}) in"
            + " {2}. Browsers will warn until an administrator imports a certificate from the"
            + " organisation's CA.",
        options.hostName(),
        created.certificate().getNotAfter().toInstant(),
        options.keystore());
    return created;
  }

  private void warnIfExpiring(ServerIdentity current) {
    Instant notAfter = current.certificate().getNotAfter().toInstant();
    Instant now = clock.instant();
    if (notAfter.isBefore(now)) {
      LOG.log(
          Level.ERROR,
          "The admin TLS certificate {0} expired on {1}: clients will refuse the admin plane."
              + " Import a new certificate, or move {2} away and restart to generate a new"
              + " self-signed one.",
          current.certificate().getSubjectX500Principal().getName(),
          notAfter,
          options.keystore());
    } else if (notAfter.isBefore(now.plus(RENEWAL_WARNING))) {
      LOG.log(
          Level.WARNING,
          "The admin TLS certificate {0} expires on {1}: import a renewed certificate",
          current.certificate().getSubjectX500Principal().getName(),
          notAfter);
    }
  }

  private static char[] keystorePassword(SecretStore secrets, SecureRandom random) {
    byte[] stored = secrets.get(PASSWORD_SECRET).orElse(null);
    if (stored == null) {
      byte[] fresh = new byte[32];
      random.nextBytes(fresh);
      stored = Base64.getUrlEncoder().withoutPadding().encode(fresh);
      Arrays.fill(fresh, (byte) 0);
      secrets.put(PASSWORD_SECRET, stored);
    }
    char[] chars = new char[stored.length];
    for (int i = 0; i < stored.length; i++) {
      chars[i] = (char) (stored[i] & 0x7f);
    }
    Arrays.fill(stored, (byte) 0);
    return chars;
  }
}
