package io.bulwark.itest;

import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.Role;
import java.net.http.HttpClient;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.osgi.framework.BundleContext;

/**
 * An HTTPS client for the admin plane that trusts exactly the appliance's own certificate (taken
 * from the AdminTls service), as an admin pins the self-signed certificate of a fresh appliance.
 */
final class AdminHttps {
  private AdminHttps() {}

  /** Issues an admin API token through the Accounts service, as an admin would for automation. */
  static String adminToken(BundleContext context) {
    Accounts accounts = context.getService(context.getServiceReference(Accounts.class));
    return accounts
        .createToken(
            "itest", "itest-" + System.nanoTime(), Role.ADMIN, Duration.ofHours(1), "local")
        .token();
  }

  static HttpClient client(BundleContext context) throws Exception {
    AdminTls tls = context.getService(context.getServiceReference(AdminTls.class));
    KeyStore trusted = KeyStore.getInstance("BCFKS", "BCFIPS");
    trusted.load(null, null);
    trusted.setCertificateEntry("bulwark-admin", tls.certificate());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX", "BCJSSE");
    tmf.init(trusted);
    SSLContext ssl = SSLContext.getInstance("TLS", "BCJSSE");
    ssl.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(2)).build();
  }
}
