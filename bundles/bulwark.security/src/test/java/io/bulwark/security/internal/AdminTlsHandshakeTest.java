package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bulwark.security.internal.TestCertificates.Issued;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real TLS client, {@code openssl s_client}, against a server socket from the admin context
 * restricted to the allowed protocols and suites: TLS 1.3 and 1.2 with AES-GCM connect; TLS 1.1,
 * ChaCha20, CBC and anonymous suites are refused by the server.
 */
class AdminTlsHandshakeTest {
  @TempDir Path dir;

  private final BlockingQueue<String> serverSide = new LinkedBlockingQueue<>();
  private final ExecutorService acceptor =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "tls-test-acceptor");
            t.setDaemon(true);
            return t;
          });
  private AdminTlsIdentity tls;
  private SSLServerSocket server;

  @BeforeEach
  void listen() throws IOException {
    assumeTrue(Openssl.available(), "needs /usr/bin/openssl and /usr/bin/timeout");
    tls =
        new AdminTlsIdentity(
            Fips.module(),
            new EncryptedSecretStore(
                Fips.module(), null, new SecretStoreOptions(dir.resolve("secrets"), true)),
            new TlsOptions(dir.resolve("admin.bcfks"), "localhost"),
            java.time.Clock.systemUTC());
    server =
        (SSLServerSocket)
            tls.sslContext()
                .getServerSocketFactory()
                .createServerSocket(0, 8, InetAddress.getByName("127.0.0.1"));
    server.setEnabledProtocols(tls.protocols().toArray(String[]::new));
    server.setEnabledCipherSuites(tls.cipherSuites().toArray(String[]::new));
    acceptor.submit(this::serve);
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    acceptor.shutdownNow();
    assertThat(acceptor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  private void serve() {
    while (!server.isClosed()) {
      try (SSLSocket socket = (SSLSocket) server.accept()) {
        socket.setSoTimeout(5_000);
        try {
          socket.startHandshake();
          serverSide.add(
              socket.getSession().getProtocol() + " " + socket.getSession().getCipherSuite());
          InputStream in = socket.getInputStream();
          while (in.read() >= 0) {
            // Drain until the client closes.
          }
        } catch (IOException e) {
          serverSide.add("refused: " + e.getMessage());
        }
      } catch (SocketException closed) {
        return;
      } catch (IOException e) {
        serverSide.add("accept failed: " + e);
      }
    }
  }

  private Openssl.Run connect(String... options) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "s_client",
                "-connect",
                "127.0.0.1:" + server.getLocalPort(),
                "-servername",
                "localhost"));
    args.addAll(List.of(options));
    return Openssl.run(dir, args.toArray(String[]::new));
  }

  private String serverOutcome() throws InterruptedException {
    String outcome = serverSide.poll(10, TimeUnit.SECONDS);
    assertThat(outcome).as("the server saw the connection").isNotNull();
    return outcome;
  }

  @Test
  void tls13WithAesGcmConnects() throws Exception {
    Openssl.Run run = connect("-tls1_3");

    assertThat(run.exitStatus()).as(run.output()).isZero();
    assertThat(run.output()).contains("Cipher is TLS_AES_256_GCM_SHA384").contains("TLSv1.3");
    assertThat(serverOutcome()).isEqualTo("TLSv1.3 TLS_AES_256_GCM_SHA384");
  }

  @Test
  void tls13WithAes128GcmConnects() throws Exception {
    Openssl.Run run = connect("-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256");

    assertThat(run.exitStatus()).as(run.output()).isZero();
    assertThat(serverOutcome()).isEqualTo("TLSv1.3 TLS_AES_128_GCM_SHA256");
  }

  @Test
  void tls12WithEcdheEcdsaAes256GcmConnects() throws Exception {
    Openssl.Run run = connect("-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384");

    assertThat(run.exitStatus()).as(run.output()).isZero();
    assertThat(run.output()).contains("Cipher is ECDHE-ECDSA-AES256-GCM-SHA384");
    assertThat(serverOutcome()).isEqualTo("TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
  }

  @Test
  void tls11WithEveryLegacyCipherIsRefusedByTheServer() throws Exception {
    Openssl.Run run = connect("-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0");

    assertRefused(run, "alert protocol version");
    assertThat(serverOutcome()).startsWith("refused");
  }

  @Test
  void tls11FromADefaultClientIsRefusedByTheServer() throws Exception {
    Openssl.Run run = connect("-tls1_1");

    assertRefused(run, "alert protocol version");
    assertThat(serverOutcome()).startsWith("refused");
  }

  @Test
  void chacha20IsRefusedOnTls13() throws Exception {
    Openssl.Run run = connect("-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256");

    assertRefused(run, "alert handshake failure");
    assertThat(serverOutcome()).startsWith("refused");
  }

  @Test
  void chacha20IsRefusedOnTls12() throws Exception {
    Openssl.Run run = connect("-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305");

    assertRefused(run, "alert handshake failure");
    assertThat(serverOutcome()).startsWith("refused");
  }

  @Test
  void cbcSuitesThatTheProviderSupportsAreRefused() throws Exception {
    Openssl.Run run = connect("-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA384");

    assertRefused(run, "alert handshake failure");
    assertThat(serverOutcome()).startsWith("refused");
  }

  @Test
  void anonymousSuitesAreRefused() throws Exception {
    Openssl.Run run = connect("-tls1_2", "-cipher", "aNULL:@SECLEVEL=0");

    assertRefused(run, "alert handshake failure");
    assertThat(serverOutcome()).startsWith("refused");
  }

  @Test
  void anImportedCertificateIsServedWithoutARestart() throws Exception {
    Issued[] chain = TestCertificates.validChain("admin.example.net");
    tls.importPem(
        TestCertificates.pem(chain[0].certificate(), chain[1].certificate()),
        TestCertificates.keyPem(chain[0].keys().getPrivate()));

    Openssl.Run run = connect("-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-showcerts");

    assertThat(run.exitStatus()).as(run.output()).isZero();
    assertThat(run.output()).contains("CN = admin.example.net").contains("CN = Bulwark Test CA");
    assertThat(serverOutcome()).isEqualTo("TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
  }

  /** The client offered the handshake and the server answered with a fatal alert. */
  private static void assertRefused(Openssl.Run run, String alert) {
    assertThat(run.exitStatus()).as(run.output()).isNotZero();
    assertThat(run.output()).contains("Cipher is (NONE)").contains(alert);
  }
}
