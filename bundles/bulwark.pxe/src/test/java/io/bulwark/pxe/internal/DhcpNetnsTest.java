package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.bulwark.store.internal.MapDbRecordStore;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DHCP server on a real interface (a veth pair into a network namespace) through its libc
 * socket tied to that interface, against BusyBox's udhcpc as the client. Needs root, as the
 * appliance does to serve DHCP; CI runs as root.
 */
class DhcpNetnsTest {
  @TempDir Path dir;
  MapDbRecordStore store;
  Netns served;
  Netns other;
  DhcpServer server;
  Path script;

  @BeforeEach
  void start() throws Exception {
    assumeThat(Netns.available()).as("root with iproute2").isTrue();
    served = new Netns("d", "10.77.0.1/24");
    other = new Netns("o", "10.78.0.1/24");
    store = Stores.open(dir.resolve("store"));
    DhcpSettings s = Stores.subnet(false, 8088);
    DhcpResponder responder =
        new DhcpResponder(s, new LeaseBook(store, s), n -> true, Clock.systemUTC());
    server =
        new DhcpServer(
            responder,
            new InetSocketAddress("255.255.255.255", 0),
            68,
            new LinkSocket(served.host, 67));
    // udhcpc hands what it got to a script; this one prints it.
    script = dir.resolve("print.sh");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "[ \"$1\" = bound ] && echo \"bound ip=$ip mask=$subnet router=$router"
            + " serverid=$serverid lease=$lease siaddr=$siaddr boot_file=$boot_file\"\n"
            + "exit 0\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (store != null) {
      store.close();
    }
    if (served != null) {
      served.close();
    }
    if (other != null) {
      other.close();
    }
  }

  private String udhcpc(Netns ns, String... extra) throws Exception {
    java.util.List<String> command =
        new java.util.ArrayList<>(
            ns.inside(
                "busybox",
                "udhcpc",
                "-f",
                "-q",
                "-n",
                "-i",
                ns.client,
                "-t",
                "3",
                "-T",
                "1",
                "-s",
                script.toString()));
    command.addAll(java.util.List.of(extra));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void udhcpcGetsALeaseAndTheBootLoaderOnTheProvisioningInterface() throws Exception {
    String mac = served.exec("cat", "/sys/class/net/" + served.client + "/address").strip();

    String out = udhcpc(served, "-V", "PXEClient:Arch:00000:UNDI:002001", "-x", "0x5d:0000");

    assertThat(out)
        .contains("bound ip=10.77.0.10")
        .contains("mask=255.255.255.0")
        .contains("router=10.77.0.1")
        .contains("serverid=10.77.0.1")
        .contains("lease=3600")
        .contains("siaddr=10.77.0.1")
        .contains("boot_file=undionly.kpxe");
    Lease lease = new LeaseBook(store, Stores.subnet(false, 8088)).lease(mac);
    assertThat(lease).as("lease of " + mac + " in the store").isNotNull();
    assertThat(out).contains("ip=" + DhcpPacket.dotted(lease.address()));
  }

  @Test
  void clientsOnAnotherInterfaceAreNotAnswered() throws Exception {
    String out = udhcpc(other);

    assertThat(out).doesNotContain("bound");
    assertThat(server.received.sum()).isZero();
  }
}
