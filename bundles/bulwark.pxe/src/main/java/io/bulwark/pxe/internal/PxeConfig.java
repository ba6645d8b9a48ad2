package io.bulwark.pxe.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The provisioning plane (PID {@code io.bulwark.pxe}): off until an admin names the provisioning
 * interface and subnet, since a second DHCP server on a network is an outage.
 */
@ObjectClassDefinition(
    name = "Bulwark provisioning plane",
    description =
        "DHCP (or proxyDHCP), TFTP and HTTP boot for the machines Bulwark commissions and deploys,"
            + " on the provisioning interface only; nothing administrative is served there.")
@interface PxeConfig {
  @AttributeDefinition(
      description =
          "The interface machines boot on, e.g. eno2 or br-prov. DHCP listens on it alone"
              + " (SO_BINDTODEVICE); empty: DHCP binds the address below only, for sites whose"
              + " routers relay DHCP to the appliance.",
      required = false)
  String interfaceName() default "";

  @AttributeDefinition(
      description =
          "The appliance's address on the provisioning network: TFTP and HTTP boot listen on it,"
              + " and it is the DHCP server identifier and next server.")
  String address();

  @AttributeDefinition(
      description =
          "server: hand out addresses of the subnet below; proxy: only boot information, next to"
              + " the site's own DHCP server (proxyDHCP, also on port 4011).")
  String mode() default "server";

  @AttributeDefinition(
      description = "The provisioning subnet, e.g. 10.40.0.0/22.",
      required = false)
  String subnet() default "";

  @AttributeDefinition(
      description = "First address of the dynamic range for machines not yet known.",
      required = false)
  String rangeStart() default "";

  @AttributeDefinition(description = "Last address of the dynamic range.", required = false)
  String rangeEnd() default "";

  @AttributeDefinition(description = "The subnet's router, if any.", required = false)
  String router() default "";

  @AttributeDefinition(description = "DNS servers for booting machines.", required = false)
  String[] dns() default {};

  @AttributeDefinition(
      description = "The DNS domain of the provisioning network.",
      required = false)
  String domain() default "";

  @AttributeDefinition(description = "Lease time in seconds.", min = "60")
  int leaseSeconds() default 3600;

  @AttributeDefinition(
      description = "Static leases as MAC=address, e.g. 52:54:00:12:34:56=10.40.0.20.",
      required = false)
  String[] staticLeases() default {};

  @AttributeDefinition(description = "DHCP server port.", min = "1", max = "65535")
  int dhcpPort() default 67;

  @AttributeDefinition(description = "The port replies to clients go to.", min = "1", max = "65535")
  int clientPort() default 68;

  @AttributeDefinition(
      description = "Where broadcast replies go: the limited broadcast address on a real subnet.")
  String broadcastAddress() default "255.255.255.255";

  @AttributeDefinition(description = "TFTP port.", min = "1", max = "65535")
  int tftpPort() default 69;

  @AttributeDefinition(
      description =
          "The TFTP root, served read-only; links are not followed. The iPXE loaders are copied"
              + " into it at start from the folder below.")
  String tftpRoot() default "data/pxe/tftp";

  @AttributeDefinition(
      description =
          "Where the iPXE loaders come from: Debian's ipxe package puts undionly.kpxe and snponly.efi"
              + " in /usr/lib/ipxe, and ipxe.efi in /boot, linked from there.")
  String loaders() default "/usr/lib/ipxe";

  @AttributeDefinition(description = "HTTP boot port.", min = "1", max = "65535")
  int httpPort() default 8088;

  @AttributeDefinition(
      description =
          "The folder served under /boot/ over HTTP (kernels, initrds, images); relative to the"
              + " working folder, or absolute.")
  String bootRoot() default "data/pxe/boot";
}
