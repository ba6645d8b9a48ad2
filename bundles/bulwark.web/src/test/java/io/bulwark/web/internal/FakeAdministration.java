package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.ExportFormat;
import io.bulwark.api.audit.ExportSignature;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Internal test doubles of the administration services the web routes call (the real ones are
 * tested in bulwark.store, bulwark.audit and bulwark.security): users in memory, an export that
 * writes a fixed body with a fixed signature, tokens in memory, and a TLS identity with a fixed
 * test certificate.
 */
final class FakeAdministration {
  private FakeAdministration() {}

  static final class Users implements UserRepository {
    final Map<String, UserAccount> users = new ConcurrentHashMap<>();

    @Override
    public List<UserAccount> users() {
      return users.values().stream()
          .sorted(java.util.Comparator.comparing(UserAccount::name))
          .toList();
    }

    @Override
    public Optional<UserAccount> user(String name) {
      return Optional.ofNullable(users.get(name));
    }

    @Override
    public void save(UserAccount account) {
      users.put(account.name(), account);
    }

    @Override
    public boolean delete(String name) {
      return users.remove(name) != null;
    }
  }

  static final class Tokens implements TokenRepository {
    final Map<String, ApiToken> tokens = new ConcurrentHashMap<>();

    @Override
    public List<ApiToken> tokens() {
      return tokens.values().stream()
          .sorted(java.util.Comparator.comparing(ApiToken::createdAt).reversed())
          .toList();
    }

    @Override
    public Optional<ApiToken> token(String id) {
      return Optional.ofNullable(tokens.get(id));
    }

    @Override
    public void save(ApiToken token) {
      tokens.put(token.id(), token);
    }
  }

  static final class Export implements AuditExport {
    static final byte[] BODY = "{\"seq\":1}\n".getBytes(StandardCharsets.UTF_8);
    static final byte[] SIGNATURE = {1, 2, 3};

    @Override
    public ExportSignature export(ExportFormat format, OutputStream out) {
      try {
        out.write(BODY);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new ExportSignature(
          format, 1, BODY.length, "SHA384withECDSA", SIGNATURE, publicKeyPem());
    }

    @Override
    public Path exportTo(ExportFormat format, Path folder) {
      try {
        Path file = folder.resolve("audit-test." + format.name().toLowerCase());
        Files.write(file, BODY);
        Files.write(folder.resolve(file.getFileName() + ".sig"), SIGNATURE);
        return file;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public byte[] sign(byte[] document) {
      return SIGNATURE.clone();
    }

    @Override
    public String publicKeyPem() {
      return "-----BEGIN PUBLIC KEY-----\nTEST\n-----END PUBLIC KEY-----\n";
    }
  }

  static final class Tls implements AdminTls {
    private final X509Certificate certificate;
    volatile String imported;

    Tls() {
      try (InputStream in = FakeAdministration.class.getResourceAsStream("/test-admin-cert.pem")) {
        certificate =
            (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public SSLContext sslContext() {
      throw new UnsupportedOperationException("route tests run over plain HTTP");
    }

    @Override
    public KeyManagerFactory keyManagers() {
      throw new UnsupportedOperationException("route tests run over plain HTTP");
    }

    @Override
    public List<String> protocols() {
      return List.of("TLSv1.3", "TLSv1.2");
    }

    @Override
    public List<String> cipherSuites() {
      return List.of("TLS_AES_256_GCM_SHA384");
    }

    @Override
    public X509Certificate certificate() {
      return certificate;
    }

    @Override
    public List<X509Certificate> certificateChain() {
      return List.of(certificate);
    }

    @Override
    public void importPem(String chainPem, char[] keyPem) {
      if (!chainPem.contains("BEGIN CERTIFICATE")) {
        throw new IllegalArgumentException("the chain holds no certificate");
      }
      imported = chainPem;
    }
  }
}
