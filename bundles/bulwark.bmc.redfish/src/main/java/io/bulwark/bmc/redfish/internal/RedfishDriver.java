package io.bulwark.bmc.redfish.internal;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcDriver;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.lib.pki.PinnedTrust;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The Redfish BMC driver: finds the service from its root ({@code /redfish/v1}, read without
 * credentials), opens a session ({@code POST} to the SessionService's Sessions: any 2xx answer with
 * an {@code X-Auth-Token} is a session, found at its {@code Location} or its body's {@code
 * @odata.id}; the token on every later request, {@code DELETE} of the session at the end) and falls
 * back to HTTP Basic on any other answer, then works on the system the endpoint names (by {@code
 * Id} or path) or, where it names none, the first of the Systems collection. Certificates: pinned
 * (see {@link PinnedTrust}).
 */
@Component(
    service = BmcDriver.class,
    configurationPid = "io.bulwark.bmc.redfish",
    configurationPolicy = ConfigurationPolicy.OPTIONAL,
    property = "bmc.protocol=redfish")
@Designate(ocd = RedfishConfig.class)
public final class RedfishDriver implements BmcDriver {
  /** The most systems whose Id is read to find the one an endpoint names. */
  static final int MAX_SYSTEMS = 64;

  private final Duration connect;
  private final Duration request;
  private final Duration softOff;
  private final Duration power;

  @Activate
  public RedfishDriver(RedfishConfig config) {
    this(
        Duration.ofSeconds(Math.max(1, config.connectSeconds())),
        Duration.ofSeconds(Math.max(1, config.requestSeconds())),
        Duration.ofSeconds(Math.max(1, config.softOffSeconds())),
        Duration.ofSeconds(Math.max(1, config.powerSeconds())));
  }

  /** Returns a driver with these timeouts (for the tests of the bundles that drive BMCs). */
  public static RedfishDriver withTimeouts(
      Duration connect, Duration request, Duration softOff, Duration power) {
    return new RedfishDriver(connect, request, softOff, power);
  }

  RedfishDriver(Duration connect, Duration request, Duration softOff, Duration power) {
    this.connect = connect;
    this.request = request;
    this.softOff = softOff;
    this.power = power;
  }

  @Override
  public BmcProtocol protocol() {
    return BmcProtocol.REDFISH;
  }

  @Override
  public String presentedFingerprint(BmcEndpoint endpoint) throws BmcException {
    RedfishClient client = new RedfishClient(endpoint.pinned(""), connect, request);
    try {
      client.raw("GET", "/redfish/v1", null);
    } catch (BmcException e) {
      if (e.kind() == Kind.CERTIFICATE) {
        return e.fingerprint();
      }
      throw e;
    }
    throw new BmcException(
        Kind.PROTOCOL, "BMC " + endpoint + " was trusted without a pinned certificate", null);
  }

  @Override
  public BmcConnection connect(BmcEndpoint endpoint, BmcCredentials credentials)
      throws BmcException {
    RedfishClient client = new RedfishClient(endpoint, connect, request);
    RedfishClient.Answer root = client.raw("GET", "/redfish/v1", null);
    if (root.status() != 200 || !root.body().containsKey("RedfishVersion")) {
      throw new BmcException(
          Kind.PROTOCOL,
          "BMC "
              + endpoint
              + " does not answer as a Redfish service (GET /redfish/v1 gave "
              + root.status()
              + "): check the protocol and port set for it",
          null);
    }
    String sessions = sessionsPath(root.body());
    String location = "";
    // What the session login answered where it opened no session (HTTP Basic is used then).
    RedfishClient.Answer refused = null;
    char[] password = credentials.password();
    try {
      RedfishClient.Answer login =
          client.raw(
              "POST",
              sessions,
              new JsonObject()
                  .put("UserName", credentials.username())
                  .put("Password", new String(password)));
      if (login.status() / 100 == 2 && !login.token().isEmpty()) {
        client.useToken(login.token());
        location = path(login.location(), login.body().getString("@odata.id", ""));
      } else {
        refused = login;
        client.useBasic(credentials.username(), password);
      }
    } finally {
      Arrays.fill(password, '\0');
    }
    RedfishConnection connection = null;
    try {
      String systems = RedfishConnection.link(root.body(), "Systems");
      if (systems == null) {
        throw new BmcException(
            Kind.UNSUPPORTED, "BMC " + endpoint + " lists no Systems collection", null);
      }
      List<String> members =
          RedfishConnection.links(
              firstRead(client, systems, refused).body().getJsonArray("Members"));
      if (members.isEmpty()) {
        throw new BmcException(Kind.UNSUPPORTED, "BMC " + endpoint + " manages no system", null);
      }
      connection =
          new RedfishConnection(
              client,
              location,
              system(client, endpoint, members),
              !endpoint.system().isEmpty(),
              root.body(),
              softOff,
              power);
      return connection;
    } finally {
      if (connection == null && !location.isEmpty()) {
        client.raw("DELETE", location, null);
      }
    }
  }

  /**
   * The first authenticated request. Where the login opened no session ({@code refused} is its
   * answer) and HTTP Basic is refused too, or busy as the login was, says so with both answers.
   */
  private static RedfishClient.Answer firstRead(
      RedfishClient client, String path, RedfishClient.Answer refused) throws BmcException {
    try {
      return client.get(path);
    } catch (BmcException e) {
      if (refused == null) {
        throw e;
      }
      String login =
          "the session login answered "
              + refused.status()
              + RedfishClient.message(refused.body()).map(m -> " (" + m + ")").orElse("")
              + (refused.status() / 100 == 2 ? " without an X-Auth-Token" : "");
      if (e.kind() == Kind.CREDENTIALS) {
        throw new BmcException(
            Kind.CREDENTIALS,
            "BMC "
                + client.endpoint()
                + " refused the credentials: "
                + login
                + ", and HTTP Basic was refused too: check the user name and password stored for"
                + " the machine",
            e);
      }
      if (e.kind() == Kind.BUSY && refused.status() == 503) {
        throw new BmcException(
            Kind.BUSY,
            "BMC "
                + client.endpoint()
                + " is busy: "
                + login
                + ", and HTTP Basic was answered 503 too: retry later",
            e);
      }
      throw e;
    }
  }

  /**
   * The path of the system the endpoint names (by {@code Id} or path) among the BMC's {@code
   * members}, or the first where it names none.
   */
  private static String system(RedfishClient client, BmcEndpoint endpoint, List<String> members)
      throws BmcException {
    String wanted = endpoint.system();
    if (wanted.isEmpty()) {
      return members.get(0);
    }
    String path = trimmed(wanted);
    for (String m : members) {
      String member = trimmed(m);
      if (member.equals(path) || member.substring(member.lastIndexOf('/') + 1).equals(wanted)) {
        return m;
      }
    }
    List<String> ids = new ArrayList<>();
    for (String m : members.subList(0, Math.min(members.size(), MAX_SYSTEMS))) {
      String id = client.get(m).body().getString("Id", "");
      if (id.equals(wanted)) {
        return m;
      }
      ids.add(id.isEmpty() ? m : id + " (" + m + ")");
    }
    throw new BmcException(
        Kind.UNSUPPORTED,
        "BMC "
            + endpoint
            + " manages no system '"
            + wanted
            + "'; its systems are "
            + String.join(", ", ids)
            + (members.size() > MAX_SYSTEMS
                ? " and " + (members.size() - MAX_SYSTEMS) + " more"
                : "")
            + ": set the machine's BMC system to one of these Ids, or leave it empty for the first",
        null);
  }

  private static String trimmed(String path) {
    String p = path.strip();
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  private static String sessionsPath(JsonObject root) {
    JsonObject links = root.getJsonObject("Links", new JsonObject());
    String fromLinks = RedfishConnection.link(links, "Sessions");
    return fromLinks != null ? fromLinks : "/redfish/v1/SessionService/Sessions";
  }

  /** The path of a Location header (which may be a whole URL), else {@code fallback}. */
  private static String path(String location, String fallback) {
    if (location == null || location.isEmpty()) {
      return fallback;
    }
    return location.startsWith("/") ? location : URI.create(location).getPath();
  }
}
