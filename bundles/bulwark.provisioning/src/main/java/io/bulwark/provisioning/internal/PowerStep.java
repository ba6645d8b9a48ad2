package io.bulwark.provisioning.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;

/**
 * How far provisioning has taken a machine's BMC for the operation under way since {@code since}
 * (the time the machine entered its state): {@link #BOOT_SET} once the next boot was set to the
 * network, {@link #POWERED} once it was powered on or cycled. Stored before each BMC request, so a
 * restart neither repeats a power cycle of a machine already booting nor forgets one.
 */
record PowerStep(String machine, Instant since, String stage) {
  static final String BOOT_SET = "boot-set";
  static final String POWERED = "powered";
  static final StoreMap<String, PowerStep> MAP =
      StoreMap.byName("provisioning.power", new Format());

  static final class Format implements RecordFormat<PowerStep> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(PowerStep r, DataOutputStream out) throws IOException {
      out.writeUTF(r.machine);
      Records.writeInstant(out, r.since);
      out.writeUTF(r.stage);
    }

    @Override
    public PowerStep read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("power step", version, 1);
      }
      return new PowerStep(in.readUTF(), Records.readInstant(in), in.readUTF());
    }
  }
}
