package io.bulwark.web.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import io.bulwark.api.security.AdminTls;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The compliance checks that probe the admin plane's own listener, as a client on this machine
 * would reach it: which TLS protocols and suites it accepts, and that every route but the public
 * ones refuses a request without credentials.
 */
final class AdminPlaneChecks {
  private AdminPlaneChecks() {}

  static final int TIMEOUT_MILLIS = 5_000;

  /** A check's id and title. */
  abstract static class Check implements ComplianceCheck {
    private final String id;
    private final String title;

    Check(String id, String title) {
      this.id = id;
      this.title = title;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public String title() {
      return title;
    }
  }

  /** A TLS client of the listener that trusts exactly the admin certificate it serves. */
  static final class Probe {
    private final String host;
    private final int port;
    private final SSLContext context;

    Probe(String host, int port, X509Certificate served) throws GeneralSecurityException {
      this.host = host;
      this.port = port;
      this.context = SSLContext.getInstance("TLS", "BCJSSE");
      context.init(null, new TrustManager[] {new Pinned(served)}, null);
    }

    /** Opens a connection offering only {@code protocols} and, if not null, {@code suites}. */
    SSLSocket connect(String[] protocols, String[] suites) throws IOException {
      SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
      try {
        socket.setSoTimeout(TIMEOUT_MILLIS);
        if (protocols != null) {
          socket.setEnabledProtocols(protocols);
        }
        if (suites != null) {
          socket.setEnabledCipherSuites(suites);
        }
        socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
        socket.startHandshake();
        return socket;
      } catch (IOException | RuntimeException e) {
        socket.close();
        throw e;
      }
    }

    /**
     * Tries a handshake: returns the negotiated protocol and suite, or {@code refused: <why>};
     * {@code client cannot offer} when this FIPS client itself cannot enable what is asked.
     */
    String handshake(String[] protocols, String[] suites) {
      try (SSLSocket s = connect(protocols, suites)) {
        return s.getSession().getProtocol() + " " + s.getSession().getCipherSuite();
      } catch (IllegalArgumentException | IllegalStateException e) {
        // BCJSSE in approved-only mode has no TLS 1.1 or 1.0 to offer, nor every CBC suite
        return "client cannot offer: " + e.getMessage();
      } catch (IOException e) {
        return "refused: " + e.getClass().getSimpleName() + " " + e.getMessage();
      }
    }

    /** Sends one request without credentials and returns the answer's status code. */
    int statusWithoutCredentials(String method, String path) throws IOException {
      try (SSLSocket s = connect(null, null)) {
        boolean body = !method.equals("GET") && !method.equals("DELETE");
        String request =
            method
                + " "
                + path
                + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n"
                + (body ? "Content-Type: application/json\r\nContent-Length: 2\r\n" : "")
                + "Connection: close\r\n\r\n"
                + (body ? "{}" : "");
        OutputStream out = s.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = s.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n' && line.length() < 200; c = in.read()) {
          line.append((char) c);
        }
        String[] parts = line.toString().trim().split(" ");
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
          throw new IOException("no HTTP status line: '" + line + "'");
        }
        return Integer.parseInt(parts[1]);
      }
    }
  }

  /** Trusts exactly one certificate (the listener's own), as its leaf. */
  private record Pinned(X509Certificate served) implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("this probe is a client");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      try {
        if (chain.length == 0 || !Arrays.equals(chain[0].getEncoded(), served.getEncoded())) {
          throw new CertificateException("not the admin plane's certificate");
        }
      } catch (CertificateEncodingException e) {
        throw new CertificateException(e);
      }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /**
   * {@code tls-suites}: the listener accepts TLS 1.3 and 1.2 with AES-GCM suites only, and refuses
   * TLS 1.1, TLS 1.0 and CBC suites; its configured protocols and suites are the evidence beside
   * what the handshakes negotiated.
   */
  @Component(service = ComplianceCheck.class)
  public static final class TlsSuites extends Check {
    static final String ID = "tls-suites";
    private static final String[] CBC = {
      "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
      "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
      "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"
    };
    private final WebServer server;
    private final AdminTls tls;

    @Activate
    public TlsSuites(@Reference WebServer server, @Reference AdminTls tls) {
      super(ID, "The admin plane offers only TLS 1.3 and 1.2 with FIPS-approved AEAD suites");
      this.server = server;
      this.tls = tls;
    }

    @Override
    public CheckResult run(Instant now) {
      Probe probe;
      try {
        probe = new Probe(server.localAddress(), server.port(), tls.certificate());
      } catch (GeneralSecurityException e) {
        return CheckResult.notReviewed(ID, "no FIPS TLS client to probe with: " + e, now);
      }
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put("listener", server.localAddress() + " port " + server.port());
      evidence.put("configuredProtocols", String.join(", ", tls.protocols()));
      evidence.put("configuredSuites", String.join(", ", tls.cipherSuites()));
      String v13 = probe.handshake(new String[] {"TLSv1.3"}, null);
      String v12 = probe.handshake(new String[] {"TLSv1.2"}, null);
      String v11 = probe.handshake(new String[] {"TLSv1.1"}, null);
      String v10 = probe.handshake(new String[] {"TLSv1"}, null);
      String cbc = probe.handshake(new String[] {"TLSv1.2"}, CBC);
      evidence.put("TLSv1.3", v13);
      evidence.put("TLSv1.2", v12);
      evidence.put("TLSv1.1", v11);
      evidence.put("TLSv1", v10);
      evidence.put("TLSv1.2 with CBC suites only", cbc);
      List<String> faults = new ArrayList<>();
      if (!v13.startsWith("TLSv1.3 ") || !v13.contains("GCM")) {
        faults.add("TLS 1.3 with AES-GCM was not negotiated (" + v13 + ")");
      }
      if (!v12.startsWith("TLSv1.2 ") || !v12.contains("_GCM_")) {
        faults.add("TLS 1.2 with AES-GCM was not negotiated (" + v12 + ")");
      }
      for (String[] old : new String[][] {{"TLSv1.1", v11}, {"TLSv1", v10}, {"CBC", cbc}}) {
        if (!old[1].startsWith("refused") && !old[1].startsWith("client cannot offer")) {
          faults.add(old[0] + " was accepted (" + old[1] + ")");
        }
      }
      for (String p : tls.protocols()) {
        if (!p.equals("TLSv1.3") && !p.equals("TLSv1.2")) {
          faults.add("the listener is configured with " + p);
        }
      }
      for (String suite : tls.cipherSuites()) {
        if (!suite.contains("_GCM_") || suite.contains("_RSA_WITH") && !suite.contains("ECDHE")) {
          faults.add("the listener is configured with the suite " + suite);
        }
      }
      if (!faults.isEmpty()) {
        return CheckResult.open(ID, String.join("; ", faults), evidence, now);
      }
      return CheckResult.met(
          ID,
          "the listener negotiated TLS 1.3 and 1.2 with AES-GCM and refused TLS 1.1, TLS 1.0 and"
              + " CBC suites",
          evidence,
          now);
    }
  }

  /**
   * {@code admin-routes-authenticated}: every route in the admin plane's table but the public ones
   * (the banner, the login, the agents' enrolment with its one-time token, {@code /healthz})
   * declares the roles it admits, and answers 401 to a request without credentials sent to the
   * listener now.
   */
  @Component(service = ComplianceCheck.class)
  public static final class RoutesAuthenticated extends Check {
    static final String ID = "admin-routes-authenticated";
    private final WebServer server;
    private final AdminTls tls;

    @Activate
    public RoutesAuthenticated(@Reference WebServer server, @Reference AdminTls tls) {
      super(ID, "Every admin route but the public ones refuses a request without credentials");
      this.server = server;
      this.tls = tls;
    }

    @Override
    public CheckResult run(Instant now) {
      Probe probe;
      try {
        probe = new Probe(server.localAddress(), server.port(), tls.certificate());
      } catch (GeneralSecurityException e) {
        return CheckResult.notReviewed(ID, "no FIPS TLS client to probe with: " + e, now);
      }
      List<String> publicRoutes = new ArrayList<>();
      List<String> faults = new ArrayList<>();
      Map<String, Integer> byOwner = new TreeMap<>();
      int probed = 0;
      for (AdminRouter.RouteInfo r : server.routeTable()) {
        String route = r.method() + " " + r.path();
        if (r.isPublic()) {
          publicRoutes.add(route);
          if (!PUBLIC.contains(route)) {
            faults.add(route + " admits anyone but is not one of the public routes");
          }
          continue;
        }
        byOwner.merge(r.owner(), 1, Integer::sum);
        try {
          int status = probe.statusWithoutCredentials(r.method(), concrete(r.path()));
          probed++;
          if (status != 401) {
            faults.add(route + " answered " + status + " without credentials");
          }
        } catch (IOException | RuntimeException e) {
          return CheckResult.notReviewed(
              ID, "the listener did not answer " + route + ": " + e.getMessage(), now);
        }
      }
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put("routes", Integer.toString(server.routeTable().size()));
      evidence.put("probedWithoutCredentials", Integer.toString(probed));
      evidence.put("publicRoutes", String.join(", ", publicRoutes));
      evidence.put("routesByContributor", byOwner.toString());
      if (!faults.isEmpty()) {
        evidence.put("faults", String.join("; ", faults.subList(0, Math.min(10, faults.size()))));
        return CheckResult.open(
            ID, faults.size() + " routes are reachable without credentials", evidence, now);
      }
      return CheckResult.met(
          ID,
          "all "
              + probed
              + " routes that are not public answered 401 to a request without credentials",
          evidence,
          now);
    }

    /** The routes that answer without credentials, by design. */
    static final List<String> PUBLIC =
        List.of(
            "GET /api/v1/banner",
            "POST /api/v1/session",
            "POST " + AccessControl.AGENT_ENROLMENT,
            "GET /healthz");

    /** Returns a path with each parameter ({@code {name}} or {@code :name}) given a value. */
    static String concrete(String path) {
      return path.replaceAll("\\{[^/}]+\\}", "compliance-probe")
          .replaceAll(":[^/]+", "compliance-probe");
    }
  }

  /**
   * {@code certificate-validity}: the certificate the admin plane serves is within its dates, has a
   * strong key, and is not the self-signed one the appliance made itself; whether its issuer is a
   * DoD-approved CA is for the assessor (the chain is the evidence), so an imported, valid chain is
   * Not Reviewed with that question.
   */
  @Component(service = ComplianceCheck.class)
  public static final class CertificateValidity extends Check {
    static final String ID = "certificate-validity";
    private final AdminTls tls;

    @Activate
    public CertificateValidity(@Reference AdminTls tls) {
      super(
          ID, "The admin plane's certificate is valid and issued by the site's (DoD-approved) CA");
      this.tls = tls;
    }

    @Override
    public CheckResult run(Instant now) {
      List<X509Certificate> chain = tls.certificateChain();
      X509Certificate leaf = chain.get(0);
      Map<String, String> evidence = new LinkedHashMap<>();
      for (int i = 0; i < chain.size(); i++) {
        X509Certificate c = chain.get(i);
        evidence.put(
            "chain[" + i + "]",
            c.getSubjectX500Principal().getName()
                + " issued by "
                + c.getIssuerX500Principal().getName()
                + ", valid "
                + c.getNotBefore().toInstant()
                + " to "
                + c.getNotAfter().toInstant()
                + ", "
                + c.getPublicKey().getAlgorithm()
                + ", SHA-256 "
                + CertificateFingerprint.sha256(c));
      }
      List<String> faults = new ArrayList<>();
      for (X509Certificate c : chain) {
        if (now.isBefore(c.getNotBefore().toInstant())
            || now.isAfter(c.getNotAfter().toInstant())) {
          faults.add(c.getSubjectX500Principal().getName() + " is outside its validity dates");
        }
      }
      boolean selfSigned =
          chain.size() == 1 && leaf.getSubjectX500Principal().equals(leaf.getIssuerX500Principal());
      if (selfSigned) {
        faults.add(
            "the admin plane serves the self-signed certificate the appliance made; import the"
                + " site's certificate issued by a DoD-approved CA (TLS page)");
      }
      if (!faults.isEmpty()) {
        return CheckResult.open(ID, String.join("; ", faults), evidence, now);
      }
      return new CheckResult(
          ID,
          io.bulwark.api.compliance.CheckStatus.NOT_REVIEWED,
          "the chain is within its dates and issued by "
              + leaf.getIssuerX500Principal().getName()
              + ": confirm that this CA is DoD-approved",
          evidence,
          now);
    }
  }

  /**
   * {@code connection-limits}: the admin listener caps connections overall and per address and
   * closes those that keep a request waiting, with the limits it runs with now as the evidence.
   */
  @Component(service = ComplianceCheck.class)
  public static final class ConnectionLimits extends Check {
    static final String ID = "connection-limits";
    private final WebServer server;

    @Activate
    public ConnectionLimits(@Reference WebServer server) {
      super(ID, "The admin plane caps connections and request sizes and times out slow clients");
      this.server = server;
    }

    @Override
    public CheckResult run(Instant now) {
      ConnectionOptions l = server.limits();
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put("maxConnections", Integer.toString(l.maxConnections()));
      evidence.put("maxConnectionsPerAddress", Integer.toString(l.maxPerAddress()));
      evidence.put("maxRequestBodyBytes", Integer.toString(AdminRouter.MAX_BODY_BYTES));
      evidence.put(
          "deadlines",
          "handshake "
              + l.handshakeSeconds()
              + " s, headers "
              + l.headerSeconds()
              + " s, body "
              + l.bodySeconds()
              + " s, keep-alive "
              + l.keepAliveSeconds()
              + " s, idle "
              + l.idleSeconds()
              + " s");
      List<String> faults = new ArrayList<>();
      if (l.maxPerAddress() >= l.maxConnections()) {
        faults.add("one address may take every connection");
      }
      if (l.headerSeconds() > 60 || l.bodySeconds() > 300 || l.handshakeSeconds() > 60) {
        faults.add("a slow client may hold a connection for minutes before sending a request");
      }
      return faults.isEmpty()
          ? CheckResult.met(
              ID,
              "the listener takes at most "
                  + l.maxConnections()
                  + " connections, "
                  + l.maxPerAddress()
                  + " per address, and closes slow ones",
              evidence,
              now)
          : CheckResult.open(ID, String.join("; ", faults), evidence, now);
    }
  }

  /**
   * {@code audit-access-control}: in the route table, every audit route (search, verify, export,
   * the signing key) admits admins and auditors only.
   */
  @Component(service = ComplianceCheck.class)
  public static final class AuditAccess extends Check {
    static final String ID = "audit-access-control";
    private final WebServer server;

    @Activate
    public AuditAccess(@Reference WebServer server) {
      super(ID, "Only admins and auditors may read, verify or export the audit log");
      this.server = server;
    }

    @Override
    public CheckResult run(Instant now) {
      Map<String, String> evidence = new TreeMap<>();
      List<String> faults = new ArrayList<>();
      java.util.Set<io.bulwark.api.security.Role> allowed =
          java.util.EnumSet.of(
              io.bulwark.api.security.Role.ADMIN, io.bulwark.api.security.Role.AUDITOR);
      for (AdminRouter.RouteInfo r : server.routeTable()) {
        if (!r.path().startsWith("/api/v1/audit")) {
          continue;
        }
        String route = r.method() + " " + r.path();
        evidence.put(
            route,
            r.roles().stream().map(x -> x.name().toLowerCase()).sorted().toList().toString());
        if (r.isPublic() || !allowed.containsAll(r.roles())) {
          faults.add(route + " admits " + (r.isPublic() ? "anyone" : r.roles()));
        }
      }
      if (evidence.isEmpty()) {
        return CheckResult.notReviewed(ID, "the route table holds no audit route", now);
      }
      return faults.isEmpty()
          ? CheckResult.met(
              ID,
              "the " + evidence.size() + " audit routes admit admins and auditors only",
              evidence,
              now)
          : CheckResult.open(ID, String.join("; ", faults), evidence, now);
    }
  }
}
