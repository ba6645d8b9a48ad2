package io.bulwark.api.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;

/**
 * What record formats share: instants (seconds and nanoseconds, or a marker for none) and the error
 * for a version a format does not know. Static helpers; thread-safe.
 *
 * @since 1.1
 */
public final class Records {
  private static final long NO_INSTANT = Long.MIN_VALUE;

  private Records() {}

  /** Writes {@code at}, which may be null. */
  public static void writeInstant(DataOutputStream out, Instant at) throws IOException {
    if (at == null) {
      out.writeLong(NO_INSTANT);
    } else {
      out.writeLong(at.getEpochSecond());
      out.writeInt(at.getNano());
    }
  }

  /** Reads what {@link #writeInstant} wrote; null for none. */
  public static Instant readInstant(DataInputStream in) throws IOException {
    long seconds = in.readLong();
    return seconds == NO_INSTANT ? null : Instant.ofEpochSecond(seconds, in.readInt());
  }

  /** Returns the error for a record in a version {@code format} cannot read. */
  public static IOException unknownVersion(String format, int version, int known) {
    return new IOException(
        format + " record in format version " + version + "; this Bulwark reads 1 to " + known);
  }
}
