package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPlanner;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.system.SteadyClock;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.web.api.MetricsSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The provisioning plane: DHCP (or proxyDHCP), TFTP and HTTP boot on the provisioning network,
 * started together from PID {@code io.bulwark.pxe} (none of it runs until that configuration
 * exists). It reports itself on the System page and its counters on {@code /metrics}.
 */
@Component(
    service = {ProvisioningPlane.class, MetricsSource.class, SubsystemCheck.class},
    configurationPid = "io.bulwark.pxe",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = PxeConfig.class)
public final class ProvisioningPlane implements MetricsSource, SubsystemCheck {
  private static final Logger LOG = Logger.getLogger(ProvisioningPlane.class.getName());

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  volatile BootPlanner planner;

  private final Instant since = Instant.now();
  private final DhcpSettings settings;
  private final LeaseBook leases;
  private final TftpServer tftp;
  private final BootHttp http;
  private final DhcpServer dhcp;
  private final String where;

  @Activate
  public ProvisioningPlane(@Reference RecordStore store, PxeConfig config) throws IOException {
    settings = settings(config);
    InetAddress address = InetAddress.getByName(config.address());
    Path tftpRoot = Path.of(config.tftpRoot()).toAbsolutePath();
    Loaders.install(Path.of(config.loaders()), tftpRoot);
    Path bootRoot = Path.of(config.bootRoot()).toAbsolutePath();
    TftpServer t = null;
    BootHttp h = null;
    try {
      t = new TftpServer(tftpRoot, new InetSocketAddress(address, config.tftpPort()), 1_000);
      String base = "http://" + config.address() + ":" + config.httpPort();
      BootTokens tokens = new BootTokens(Duration.ofHours(4), SteadyClock.system());
      h =
          new BootHttp(
              new InetSocketAddress(address, config.httpPort()),
              bootRoot,
              tftpRoot,
              new BootScripts(base, bootRoot, () -> planner, tokens),
              tokens,
              () -> planner);
      leases = new LeaseBook(store, settings);
      TftpServer tf = t;
      DhcpResponder responder = new DhcpResponder(settings, leases, tf::has, SteadyClock.system());
      List<PacketSocket> sockets = new ArrayList<>();
      String ifname = config.interfaceName().strip();
      if (ifname.isEmpty()) {
        sockets.add(new ChannelSocket(new InetSocketAddress(address, config.dhcpPort())));
      } else {
        sockets.add(new LinkSocket(ifname, config.dhcpPort()));
        if (settings.proxy()) {
          sockets.add(new LinkSocket(ifname, DhcpResponder.PROXY_PORT));
        }
      }
      dhcp =
          new DhcpServer(
              responder,
              new InetSocketAddress(InetAddress.getByName(config.broadcastAddress()), 0),
              config.clientPort(),
              sockets.toArray(PacketSocket[]::new));
    } catch (IOException | RuntimeException e) {
      if (h != null) {
        h.close();
      }
      if (t != null) {
        t.close();
      }
      throw e;
    }
    tftp = t;
    http = h;
    where =
        (settings.proxy() ? "proxyDHCP" : "DHCP")
            + (config.interfaceName().isBlank()
                ? " on " + config.address()
                : " on " + config.interfaceName())
            + ", TFTP "
            + config.address()
            + ":"
            + tftp.port()
            + " ("
            + tftpRoot
            + "), HTTP boot http://"
            + config.address()
            + ":"
            + http.port();
    LOG.info("Provisioning plane up: " + where);
  }

  static DhcpSettings settings(PxeConfig c) {
    boolean proxy;
    switch (c.mode().strip().toLowerCase(Locale.ROOT)) {
      case "server" -> proxy = false;
      case "proxy" -> proxy = true;
      default ->
          throw new IllegalArgumentException(
              "io.bulwark.pxe mode '" + c.mode() + "' is neither server nor proxy");
    }
    int server = DhcpPacket.ipv4(c.address());
    int network = 0;
    int mask = 0;
    int start = 0;
    int end = 0;
    if (!proxy) {
      String[] cidr = c.subnet().strip().split("/");
      if (cidr.length != 2) {
        throw new IllegalArgumentException(
            "io.bulwark.pxe subnet '"
                + c.subnet()
                + "' is not an address/prefix, e.g. 10.40.0.0/22");
      }
      int prefix = Integer.parseInt(cidr[1]);
      if (prefix < 8 || prefix > 30) {
        throw new IllegalArgumentException(
            "io.bulwark.pxe subnet prefix /" + prefix + " is not 8-30");
      }
      mask = -1 << (32 - prefix);
      network = DhcpPacket.ipv4(cidr[0]) & mask;
      start = DhcpPacket.ipv4(c.rangeStart());
      end = DhcpPacket.ipv4(c.rangeEnd());
    }
    Map<String, Integer> fixed = new LinkedHashMap<>();
    for (String entry : c.staticLeases()) {
      String[] kv = entry.strip().split("=");
      if (kv.length != 2
          || !kv[0].strip().toLowerCase(Locale.ROOT).matches("([0-9a-f]{2}:){5}[0-9a-f]{2}")) {
        throw new IllegalArgumentException(
            "io.bulwark.pxe static lease '"
                + entry
                + "' is not MAC=address, e.g. 52:54:00:12:34:56=10.40.0.20");
      }
      fixed.put(kv[0].strip().toLowerCase(Locale.ROOT), DhcpPacket.ipv4(kv[1].strip()));
    }
    List<Integer> dns = new ArrayList<>();
    for (String d : c.dns()) {
      if (!d.isBlank()) {
        dns.add(DhcpPacket.ipv4(d.strip()));
      }
    }
    return new DhcpSettings(
        proxy,
        server,
        network,
        mask,
        start,
        end,
        c.router().isBlank() ? 0 : DhcpPacket.ipv4(c.router().strip()),
        dns,
        c.domain().strip(),
        Duration.ofSeconds(c.leaseSeconds()),
        fixed,
        c.httpPort());
  }

  LeaseBook leases() {
    return leases;
  }

  DhcpServer dhcp() {
    return dhcp;
  }

  TftpServer tftp() {
    return tftp;
  }

  BootHttp http() {
    return http;
  }

  @Deactivate
  void stop() {
    dhcp.close();
    tftp.close();
    http.close();
    LOG.info("Provisioning plane stopped");
  }

  @Override
  public String exposition() {
    StringBuilder s = new StringBuilder();
    family(s, "bulwark_pxe_dhcp_received_total", "counter", "DHCP packets received.");
    s.append("bulwark_pxe_dhcp_received_total ").append(dhcp.received.sum()).append('\n');
    family(s, "bulwark_pxe_dhcp_replies_total", "counter", "DHCP replies sent, by message type.");
    labelled(s, "bulwark_pxe_dhcp_replies_total", "type", dhcp.sent);
    family(
        s,
        "bulwark_pxe_dhcp_malformed_total",
        "counter",
        "DHCP packets dropped as malformed, by what was wrong.");
    labelled(s, "bulwark_pxe_dhcp_malformed_total", "kind", dhcp.malformed);
    family(
        s,
        "bulwark_pxe_dhcp_rate_limited_total",
        "counter",
        "DHCP packets dropped because their client sent faster than a booting machine does.");
    s.append("bulwark_pxe_dhcp_rate_limited_total ").append(dhcp.limited.sum()).append('\n');
    family(s, "bulwark_pxe_dhcp_leases", "gauge", "Active leases of the dynamic range.");
    s.append("bulwark_pxe_dhcp_leases ")
        .append(leases.activeInRange(SteadyClock.system().instant()))
        .append('\n');
    family(s, "bulwark_pxe_tftp_transfers_total", "counter", "TFTP transfers, by how they ended.");
    Map<String, LongAdder> transfers = new TreeMap<>();
    transfers.put("completed", tftp.completed);
    transfers.put("abandoned", tftp.abandoned);
    transfers.put("refused", tftp.refused);
    labelled(s, "bulwark_pxe_tftp_transfers_total", "outcome", transfers);
    family(
        s, "bulwark_pxe_tftp_malformed_total", "counter", "TFTP packets that broke the protocol.");
    labelled(s, "bulwark_pxe_tftp_malformed_total", "kind", tftp.malformed);
    family(s, "bulwark_pxe_tftp_bytes_total", "counter", "Bytes of file data sent over TFTP.");
    s.append("bulwark_pxe_tftp_bytes_total ").append(tftp.bytes.sum()).append('\n');
    family(s, "bulwark_pxe_http_scripts_total", "counter", "iPXE scripts served.");
    s.append("bulwark_pxe_http_scripts_total ").append(http.scripts.sum()).append('\n');
    family(
        s,
        "bulwark_pxe_http_reports_total",
        "counter",
        "Boot environment reports, by whether they were taken.");
    Map<String, LongAdder> reports = new TreeMap<>();
    reports.put("taken", http.reports);
    reports.put("refused", http.refusedReports);
    labelled(s, "bulwark_pxe_http_reports_total", "outcome", reports);
    family(
        s,
        "bulwark_pxe_http_log_posts_total",
        "counter",
        "Log lines posted by boot environments, in posts taken.");
    s.append("bulwark_pxe_http_log_posts_total ").append(http.logLines.sum()).append('\n');
    return s.toString();
  }

  private static void family(StringBuilder s, String name, String type, String help) {
    s.append("# HELP ").append(name).append(' ').append(help).append('\n');
    s.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void labelled(
      StringBuilder s, String name, String label, Map<String, LongAdder> counters) {
    for (Map.Entry<String, LongAdder> e : new TreeMap<>(counters).entrySet()) {
      s.append(name)
          .append('{')
          .append(label)
          .append("=\"")
          .append(e.getKey())
          .append("\"} ")
          .append(e.getValue().sum())
          .append('\n');
    }
  }

  @Override
  public SubsystemStatus status() {
    long bad = dhcp.malformed.values().stream().mapToLong(LongAdder::sum).sum();
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("dhcp_leases", (double) leases.activeInRange(SteadyClock.system().instant()));
    m.put("dhcp_malformed", (double) bad);
    m.put("tftp_transfers", (double) tftp.sessions());
    String summary = where;
    SubsystemState state = SubsystemState.UP;
    String action = "";
    if (!settings.proxy()) {
      int used = leases.activeInRange(SteadyClock.system().instant());
      if (used >= settings.rangeSize()) {
        state = SubsystemState.DEGRADED;
        summary = where + "; the dynamic range is full (" + used + " leases)";
        action =
            "widen the range (io.bulwark.pxe rangeStart/rangeEnd) or give known machines static leases";
      }
    }
    return new SubsystemStatus("Provisioning plane", state, summary, action, since, m);
  }
}
