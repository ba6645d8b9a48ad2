package io.bulwark.pxe.internal;

import io.bulwark.store.internal.MapDbRecordStore;
import java.nio.file.Path;

/** The appliance's real store in a test folder. */
final class Stores {
  private Stores() {}

  static MapDbRecordStore open(Path dir) {
    return MapDbRecordStore.inFolder(dir);
  }

  static DhcpSettings subnet(boolean proxy, int httpPort) {
    return new DhcpSettings(
        proxy,
        DhcpPacket.ipv4("10.77.0.1"),
        DhcpPacket.ipv4("10.77.0.0"),
        0xffffff00,
        DhcpPacket.ipv4("10.77.0.100"),
        DhcpPacket.ipv4("10.77.0.103"),
        DhcpPacket.ipv4("10.77.0.1"),
        java.util.List.of(DhcpPacket.ipv4("10.77.0.1")),
        "prov.example",
        java.time.Duration.ofHours(1),
        java.util.Map.of("52:54:00:00:00:99", DhcpPacket.ipv4("10.77.0.50")),
        httpPort);
  }
}
