package io.bulwark.store.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.LossCause;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * Encodes the hourly capacity account: start and end, the observed time, GPU-hours installed and
 * delivered, then the lost GPU-hours as (cause name, value) pairs so that causes added later read
 * back as zero in this release and unknown ones are skipped.
 */
final class CapacityCodec {
  private static final int FORMAT = 1;

  private CapacityCodec() {}

  static byte[] encode(CapacityInterval interval) {
    return RecordCodec.write(
        out -> {
          out.writeByte(FORMAT);
          out.writeLong(interval.start().toEpochMilli());
          out.writeLong(interval.end().toEpochMilli());
          out.writeLong(interval.observedMillis());
          out.writeDouble(interval.gpuHoursInstalled());
          out.writeDouble(interval.gpuHoursDelivered());
          out.writeInt(interval.gpuHoursLost().size());
          for (Map.Entry<LossCause, Double> e : interval.gpuHoursLost().entrySet()) {
            out.writeUTF(e.getKey().name());
            out.writeDouble(e.getValue());
          }
        });
  }

  static CapacityInterval decode(long key, byte[] bytes) {
    return RecordCodec.read(
        "capacity/" + key,
        bytes,
        in -> {
          RecordCodec.checkFormat("capacity/" + key, in.readUnsignedByte(), FORMAT);
          Instant start = Instant.ofEpochMilli(in.readLong());
          Instant end = Instant.ofEpochMilli(in.readLong());
          long observed = in.readLong();
          double installed = in.readDouble();
          double delivered = in.readDouble();
          int count = in.readInt();
          Map<LossCause, Double> lost = new EnumMap<>(LossCause.class);
          for (int i = 0; i < count; i++) {
            String cause = in.readUTF();
            double hours = in.readDouble();
            for (LossCause c : LossCause.values()) {
              if (c.name().equals(cause)) {
                lost.put(c, hours);
              }
            }
          }
          return new CapacityInterval(start, end, observed, installed, delivered, lost);
        });
  }
}
