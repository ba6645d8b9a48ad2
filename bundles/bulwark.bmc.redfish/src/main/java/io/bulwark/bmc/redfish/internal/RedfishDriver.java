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
import java.util.Arrays;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The Redfish BMC driver: finds the service from its root ({@code /redfish/v1}, read without
 * credentials), opens a session ({@code POST} to the SessionService's Sessions, {@code
 * X-Auth-Token} on every later request, {@code DELETE} of the session at the end) and falls back to
 * HTTP Basic where the BMC has no session service, then works on the first system of its Systems
 * collection. Certificates: pinned (see {@link PinnedTrust}).
 */
@Component(
    service = BmcDriver.class,
    configurationPid = "io.bulwark.bmc.redfish",
    configurationPolicy = ConfigurationPolicy.OPTIONAL,
    property = "bmc.protocol=redfish")
@Designate(ocd = RedfishConfig.class)
public final class RedfishDriver implements BmcDriver {
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
    char[] password = credentials.password();
    try {
      RedfishClient.Answer login =
          client.raw(
              "POST",
              sessions,
              new JsonObject()
                  .put("UserName", credentials.username())
                  .put("Password", new String(password)));
      if (login.status() == 201 || login.status() == 200) {
        if (login.token().isEmpty()) {
          throw new BmcException(
              Kind.PROTOCOL, "BMC " + endpoint + " opened a session without an X-Auth-Token", null);
        }
        client.useToken(login.token());
        location = path(login.location(), login.body().getString("@odata.id", ""));
      } else if (login.status() == 401 || login.status() == 403) {
        throw new BmcException(
            Kind.CREDENTIALS,
            "BMC "
                + endpoint
                + " refused the credentials"
                + RedfishClient.message(login.body()).map(m -> " (" + m + ")").orElse("")
                + ": check the user name and password stored for the machine",
            null);
      } else if (login.status() == 404 || login.status() == 405 || login.status() == 501) {
        client.useBasic(credentials.username(), password);
      } else {
        throw new BmcException(
            login.status() == 503 ? Kind.BUSY : Kind.PROTOCOL,
            "BMC " + endpoint + " answered the login with " + login.status(),
            null);
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
          RedfishConnection.links(client.get(systems).body().getJsonArray("Members"));
      if (members.isEmpty()) {
        throw new BmcException(Kind.UNSUPPORTED, "BMC " + endpoint + " manages no system", null);
      }
      connection =
          new RedfishConnection(client, location, members.get(0), root.body(), softOff, power);
      return connection;
    } finally {
      if (connection == null && !location.isEmpty()) {
        client.raw("DELETE", location, null);
      }
    }
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
