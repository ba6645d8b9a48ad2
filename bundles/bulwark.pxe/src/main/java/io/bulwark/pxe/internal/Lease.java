package io.bulwark.pxe.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;

/**
 * An address bound to a machine's MAC address on the provisioning subnet: until when, and whether
 * the admin fixed it (a static lease, which never expires and is never given to another MAC).
 */
record Lease(String mac, int address, Instant expires, boolean fixed, String hostname) {
  /** The store map of bound leases, by MAC address. */
  static final StoreMap<String, Lease> MAP = StoreMap.byName("pxe.leases", new Format());

  Lease {
    Objects.requireNonNull(mac, "mac");
    hostname = Objects.requireNonNullElse(hostname, "");
  }

  boolean activeAt(Instant now) {
    return fixed || expires == null || expires.isAfter(now);
  }

  static final class Format implements RecordFormat<Lease> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(Lease l, DataOutputStream out) throws IOException {
      out.writeUTF(l.mac);
      out.writeInt(l.address);
      Records.writeInstant(out, l.expires);
      out.writeBoolean(l.fixed);
      out.writeUTF(l.hostname);
    }

    @Override
    public Lease read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("lease", version, 1);
      }
      return new Lease(
          in.readUTF(), in.readInt(), Records.readInstant(in), in.readBoolean(), in.readUTF());
    }
  }
}
