package io.bulwark.scheduler.kubernetes.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.net.ssl.CertPathTrustManagerParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Trust in the API server by the cluster's CA certificates, read from a PEM file. The trust
 * managers come from the first provider offering PKIX (BCJSSE in FIPS mode on the appliance) and
 * are built from trust anchors directly, with no key store: PKCS12 and JKS are not available in
 * FIPS approved-only mode. Used by {@link ClusterClient} when {@code caCertFile} is set.
 */
final class ClusterTrust {
  private ClusterTrust() {}

  /**
   * Returns trust managers that accept only chains issued by the certificates in {@code pemFile}.
   *
   * @throws IllegalArgumentException if the file cannot be read or holds no certificate
   */
  static TrustManager[] fromPem(String cluster, Path pemFile) {
    Set<TrustAnchor> anchors = new LinkedHashSet<>();
    try (InputStream in = Files.newInputStream(pemFile)) {
      CertificateFactory x509 = CertificateFactory.getInstance("X.509");
      for (var certificate : x509.generateCertificates(in)) {
        anchors.add(new TrustAnchor((X509Certificate) certificate, null));
      }
    } catch (IOException | GeneralSecurityException | ClassCastException e) {
      throw new IllegalArgumentException(
          cluster
              + ": cannot read the CA certificates in "
              + pemFile
              + " ("
              + e.getMessage()
              + "); caCertFile must be a PEM file of the cluster's CA (the certificate-authority"
              + " of its kubeconfig)",
          e);
    }
    if (anchors.isEmpty()) {
      throw new IllegalArgumentException(
          cluster
              + ": "
              + pemFile
              + " holds no certificate; caCertFile must be a PEM file of the cluster's CA");
    }
    try {
      PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, null);
      // Cluster CAs publish no revocation lists; the API server's certificate is short-lived.
      parameters.setRevocationEnabled(false);
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      factory.init(new CertPathTrustManagerParameters(parameters));
      return factory.getTrustManagers();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          cluster + ": no PKIX trust manager is available: " + e.getMessage(), e);
    }
  }
}
