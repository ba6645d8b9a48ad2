package io.bulwark.pxe.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * The DHCP server's decisions, without sockets: which address a client gets (RFC 2131 section 4.3),
 * and which boot loader or script it is pointed at. A PXE ROM that is not iPXE gets iPXE over TFTP
 * ({@code undionly.kpxe} for BIOS, {@code ipxe.efi} for x86-64 UEFI, {@code ipxe-arm64.efi} for
 * ARM64 UEFI when the TFTP root has it); a UEFI HTTP boot client gets the iPXE loader's URL; iPXE
 * itself (user class "iPXE") gets the URL of its machine's script on the HTTP boot server. In proxy
 * mode it answers only PXE clients, with boot information and no address.
 */
final class DhcpResponder {
  private static final Logger LOG = Logger.getLogger(DhcpResponder.class.getName());
  static final int CLIENT_PORT = 68;
  static final int SERVER_PORT = 67;
  static final int PROXY_PORT = 4011;

  /** A message to send, and to where. */
  record Reply(byte[] data, InetSocketAddress to, int type, String summary) {}

  private final DhcpSettings settings;
  private final LeaseBook leases;
  private final Predicate<String> loaderPresent;
  private final Clock clock;
  private final RepeatedWarnings warnings;

  DhcpResponder(
      DhcpSettings settings, LeaseBook leases, Predicate<String> loaderPresent, Clock clock) {
    this.settings = settings;
    this.leases = leases;
    this.loaderPresent = loaderPresent;
    this.clock = clock;
    this.warnings = new RepeatedWarnings(LOG, clock);
  }

  /**
   * Returns the reply to {@code request} from {@code from}, or null if none is due (a reply from
   * another server, a client that chose another server, a release, a proxyDHCP request from a
   * client that is not booting).
   *
   * @throws StoreUnavailableException if a lease could not be written (no ACK is sent)
   */
  Reply answer(DhcpPacket request, InetSocketAddress from) {
    if (request.op != DhcpPacket.BOOTREQUEST || request.htype != 1 || request.hlen != 6) {
      return null;
    }
    BootClient client = BootClient.of(request);
    int type = request.messageType();
    Instant now = clock.instant();
    if (settings.proxy()) {
      return proxyAnswer(request, client, type, from);
    }
    switch (type) {
      case DhcpPacket.DISCOVER:
        {
          int address = leases.offer(client.mac(), request.address(DhcpPacket.REQUESTED_IP), now);
          if (address == 0) {
            warnings.warn(
                "range-full " + client.mac(),
                () ->
                    "No address left for "
                        + client.mac()
                        + " in the provisioning range "
                        + DhcpPacket.dotted(settings.rangeStart())
                        + "-"
                        + DhcpPacket.dotted(settings.rangeEnd())
                        + ": widen the range or remove stale leases");
            return null;
          }
          DhcpPacket.Builder r = lease(request, DhcpPacket.OFFER, address, client);
          return new Reply(
              r.encode(),
              destination(request, false),
              DhcpPacket.OFFER,
              "offer " + DhcpPacket.dotted(address) + " to " + client.mac());
        }
      case DhcpPacket.REQUEST:
        return request(request, client, now);
      case DhcpPacket.DECLINE:
        if (request.address(DhcpPacket.SERVER_ID) == settings.server()) {
          int address = request.address(DhcpPacket.REQUESTED_IP);
          leases.decline(client.mac(), address, now);
          LOG.warning(
              () ->
                  client.mac()
                      + " declined "
                      + DhcpPacket.dotted(address)
                      + " as already in use: another host on the provisioning subnet holds it"
                      + " (set aside for "
                      + LeaseBook.DECLINE_HOLD.toMinutes()
                      + " minutes); find it and remove it or narrow the range");
        }
        return null;
      case DhcpPacket.RELEASE:
        if (request.address(DhcpPacket.SERVER_ID) == settings.server()) {
          leases.release(client.mac(), request.ciaddr);
        }
        return null;
      case DhcpPacket.INFORM:
        {
          DhcpPacket.Builder r = request.reply().type(DhcpPacket.ACK);
          r.ciaddr = request.ciaddr;
          network(r, false);
          boot(r, client);
          return new Reply(
              r.encode(),
              request.ciaddr != 0
                  ? new InetSocketAddress(inet(request.ciaddr), CLIENT_PORT)
                  : destination(request, true),
              DhcpPacket.ACK,
              "inform " + client.mac());
        }
      default:
        return null;
    }
  }

  private Reply request(DhcpPacket request, BootClient client, Instant now) {
    int serverId = request.address(DhcpPacket.SERVER_ID);
    if (serverId != 0 && serverId != settings.server()) {
      return null; // SELECTING another server's offer
    }
    int address = request.address(DhcpPacket.REQUESTED_IP);
    if (address == 0) {
      address = request.ciaddr; // RENEWING or REBINDING
    }
    if (address == 0) {
      return nak(request, client, "no address requested");
    }
    if ((address & settings.mask()) != settings.network()) {
      return nak(request, client, DhcpPacket.dotted(address) + " is not on this subnet");
    }
    Lease lease = leases.bind(client.mac(), address, hostname(request), now);
    if (lease == null) {
      if (serverId == 0 && leases.lease(client.mac()) == null) {
        return null; // INIT-REBOOT for an address this server knows nothing of: stay silent
      }
      return nak(request, client, DhcpPacket.dotted(address) + " is not " + client.mac() + "'s");
    }
    DhcpPacket.Builder r = lease(request, DhcpPacket.ACK, address, client);
    r.ciaddr = request.ciaddr;
    return new Reply(
        r.encode(),
        destination(request, false),
        DhcpPacket.ACK,
        "ack " + DhcpPacket.dotted(address) + " to " + client.mac());
  }

  private Reply nak(DhcpPacket request, BootClient client, String why) {
    DhcpPacket.Builder r = request.reply().type(DhcpPacket.NAK);
    r.address(DhcpPacket.SERVER_ID, settings.server());
    r.option(DhcpPacket.MESSAGE, why);
    return new Reply(
        r.encode(), destination(request, true), DhcpPacket.NAK, "nak " + client.mac() + ": " + why);
  }

  private DhcpPacket.Builder lease(DhcpPacket request, int type, int address, BootClient client) {
    DhcpPacket.Builder r = request.reply().type(type);
    r.yiaddr = address;
    r.address(DhcpPacket.SERVER_ID, settings.server());
    long seconds =
        settings.fixed().containsKey(client.mac()) ? 0xffffffffL : settings.leaseTime().toSeconds();
    r.seconds(DhcpPacket.LEASE_TIME, seconds);
    if (seconds != 0xffffffffL) {
      r.seconds(DhcpPacket.RENEWAL_TIME, seconds / 2);
      r.seconds(DhcpPacket.REBINDING_TIME, seconds * 7 / 8);
    }
    network(r, true);
    boot(r, client);
    return r;
  }

  private void network(DhcpPacket.Builder r, boolean withMask) {
    if (withMask) {
      r.address(DhcpPacket.SUBNET_MASK, settings.mask());
      r.address(DhcpPacket.BROADCAST, settings.broadcast());
    }
    if (settings.router() != 0) {
      r.address(DhcpPacket.ROUTER, settings.router());
    }
    if (!settings.dns().isEmpty()) {
      r.address(DhcpPacket.DNS, settings.dns().stream().mapToInt(Integer::intValue).toArray());
    }
    if (!settings.domain().isEmpty()) {
      r.option(DhcpPacket.DOMAIN, settings.domain());
    }
  }

  /** Adds the boot loader or script for {@code client}, if it is booting from the network. */
  private boolean boot(DhcpPacket.Builder r, BootClient client) {
    String http = "http://" + settings.serverText() + ":" + settings.httpPort();
    switch (client.kind()) {
      case NONE:
        return false;
      case HTTP:
        r.option(DhcpPacket.VENDOR_CLASS, "HTTPClient");
        r.file = http + "/boot/" + (client.arch().arm64() ? "ipxe-arm64.efi" : "ipxe.efi");
        return true;
      case PXE:
      default:
        if (client.ipxe()) {
          r.file = http + "/ipxe/" + client.mac().replace(':', '-') + ".ipxe";
          return true;
        }
        String loader = loader(client.arch());
        if (loader == null || !loaderPresent.test(loader)) {
          warnings.warn(
              "no-loader " + client.mac(),
              () ->
                  "No boot loader for "
                      + client.mac()
                      + " ("
                      + client.arch().label
                      + "): put "
                      + (loader == null ? "an iPXE build for it" : loader)
                      + " in the TFTP root");
          return false;
        }
        r.siaddr = settings.server();
        r.sname = settings.serverText();
        r.file = loader;
        r.option(DhcpPacket.TFTP_SERVER, settings.serverText());
        r.option(DhcpPacket.BOOTFILE, loader);
        return true;
    }
  }

  static String loader(BootClient.Arch arch) {
    return switch (arch) {
      case BIOS -> "undionly.kpxe";
      case UEFI_X64, UEFI_BC, HTTP_X64 -> "ipxe.efi";
      case UEFI_ARM64, HTTP_ARM64 -> "ipxe-arm64.efi";
      default -> null;
    };
  }

  private Reply proxyAnswer(
      DhcpPacket request, BootClient client, int type, InetSocketAddress from) {
    if (client.kind() == BootClient.Kind.NONE
        || (type != DhcpPacket.DISCOVER && type != DhcpPacket.REQUEST)) {
      return null;
    }
    if (type == DhcpPacket.REQUEST) {
      int serverId = request.address(DhcpPacket.SERVER_ID);
      if (serverId != 0 && serverId != settings.server()) {
        return null;
      }
      if (from.getPort() != PROXY_PORT && serverId == 0) {
        return null; // the site server's REQUEST, not ours to answer
      }
    }
    DhcpPacket.Builder r =
        request.reply().type(type == DhcpPacket.DISCOVER ? DhcpPacket.OFFER : DhcpPacket.ACK);
    r.ciaddr = request.ciaddr;
    r.address(DhcpPacket.SERVER_ID, settings.server());
    r.option(
        DhcpPacket.VENDOR_CLASS,
        client.kind() == BootClient.Kind.HTTP ? "HTTPClient" : "PXEClient");
    // PXE_DISCOVERY_CONTROL = 8: boot the file named in this reply, no boot server discovery.
    r.option(DhcpPacket.VENDOR_SPECIFIC, new byte[] {6, 1, 8, (byte) 255});
    if (!boot(r, client)) {
      return null;
    }
    InetSocketAddress to =
        request.ciaddr != 0 && from.getPort() == PROXY_PORT
            ? new InetSocketAddress(inet(request.ciaddr), from.getPort())
            : destination(request, false);
    return new Reply(
        r.encode(),
        to,
        type == DhcpPacket.DISCOVER ? DhcpPacket.OFFER : DhcpPacket.ACK,
        "proxy " + (type == DhcpPacket.DISCOVER ? "offer" : "ack") + " to " + client.mac());
  }

  /**
   * Where a reply goes (RFC 2131 section 4.1): to the relay that forwarded the request, to the
   * client's address once it has one, else broadcast on the subnet. (Unicast to a client without an
   * address needs its ARP entry written by hand; broadcasting is what every client accepts.)
   */
  private InetSocketAddress destination(DhcpPacket request, boolean nak) {
    if (request.giaddr != 0) {
      return new InetSocketAddress(inet(request.giaddr), SERVER_PORT);
    }
    if (!nak && request.ciaddr != 0) {
      return new InetSocketAddress(inet(request.ciaddr), CLIENT_PORT);
    }
    return new InetSocketAddress(inet(0xffffffff), CLIENT_PORT);
  }

  private static String hostname(DhcpPacket request) {
    String h = request.text(DhcpPacket.HOSTNAME);
    if (h == null) {
      return "";
    }
    String clean = h.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "");
    return clean.length() > 63 ? clean.substring(0, 63) : clean;
  }

  static java.net.InetAddress inet(int address) {
    try {
      return java.net.InetAddress.getByAddress(
          new byte[] {
            (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address
          });
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }
}
