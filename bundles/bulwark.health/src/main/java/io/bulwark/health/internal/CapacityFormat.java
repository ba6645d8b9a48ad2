package io.bulwark.health.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.LossCause;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * How an hour of the capacity account is stored. Version 1: start and end (epoch milliseconds), the
 * observed milliseconds, GPU-hours installed and delivered, then the lost GPU-hours as (cause,
 * value) pairs, so that a cause added later reads back as zero here and one this release does not
 * know is skipped.
 */
final class CapacityFormat implements RecordFormat<CapacityInterval> {
  static final CapacityFormat INSTANCE = new CapacityFormat();
  private static final int VERSION = 1;

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public void write(CapacityInterval interval, DataOutputStream out) throws IOException {
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
  }

  @Override
  public CapacityInterval read(int version, DataInputStream in) throws IOException {
    if (version != VERSION) {
      throw Records.unknownVersion("capacity hour", version, VERSION);
    }
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
  }
}
