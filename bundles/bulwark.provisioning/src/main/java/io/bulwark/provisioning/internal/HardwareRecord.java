package io.bulwark.provisioning.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * What the boot environment last reported of a machine's hardware ({@code inventory}, JSON as the
 * boot environment wrote it, checked) and, for commissioning and testing, the results of its
 * hardware tests ({@code results}, a JSON array; empty after an enlistment).
 */
record HardwareRecord(
    String machine, String purpose, String inventory, String results, boolean passed, Instant at) {
  static final StoreMap<String, HardwareRecord> MAP =
      StoreMap.byName("provisioning.hardware", new Format());

  static final class Format implements RecordFormat<HardwareRecord> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(HardwareRecord r, DataOutputStream out) throws IOException {
      out.writeUTF(r.machine);
      out.writeUTF(r.purpose);
      bytes(out, r.inventory);
      bytes(out, r.results);
      out.writeBoolean(r.passed);
      Records.writeInstant(out, r.at);
    }

    private static void bytes(DataOutputStream out, String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.writeInt(b.length);
      out.write(b);
    }

    private static String bytes(DataInputStream in) throws IOException {
      int n = in.readInt();
      if (n < 0 || n > (1 << 22)) {
        throw new IOException("a hardware record of " + n + " bytes");
      }
      return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }

    @Override
    public HardwareRecord read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("hardware", version, 1);
      }
      return new HardwareRecord(
          in.readUTF(),
          in.readUTF(),
          bytes(in),
          bytes(in),
          in.readBoolean(),
          Records.readInstant(in));
    }
  }
}
