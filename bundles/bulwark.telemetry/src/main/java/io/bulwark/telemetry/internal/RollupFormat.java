package io.bulwark.telemetry.internal;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.zip.CRC32;

/**
 * The layout of a roll-up file, shared by {@link RollupFileWriter} and {@link RollupFileReader}. A
 * file holds the minutes of one UTC hour written by one run, named {@code
 * rollups-YYYYMMDD-HH.<run>.rollup}. It is a sequence of blocks, each framed as a type byte, a
 * payload length (int), the payload and a CRC-32 of the three (int), all big-endian:
 *
 * <ul>
 *   <li>{@code H} (first, once): magic {@code BWRU}, format version, start of the hour (epoch ms);
 *   <li>{@code S}: series first seen in this file: first index, count, then per series its GPU
 *       (short, -1 for node level), node and metric (modified UTF-8, as {@code DataOutput} writes);
 *   <li>{@code M}: one minute of consecutive series: minute number (epoch minutes, long), first
 *       series index, count, then per series a fixed 14-byte record: min, avg, max (floats) and the
 *       sample count (unsigned short, 0 when the series had no sample that minute).
 * </ul>
 *
 * A block whose frame or CRC does not check out ends what can be read of the file.
 */
final class RollupFormat {
  static final byte HEADER = 'H';
  static final byte SERIES = 'S';
  static final byte MINUTES = 'M';
  static final int MAGIC = 0x42575255;
  static final int VERSION = 1;
  static final int FRAME_HEAD_BYTES = 5;
  static final int CRC_BYTES = 4;
  static final int MAX_PAYLOAD = 1 << 24;
  static final int RECORDS_PER_BLOCK = 4096;
  static final int MINUTES_HEAD_BYTES = 16;
  static final int RECORD_BYTES = MinuteRollups.RECORD_BYTES;
  static final long HOUR_MILLIS = 3_600_000;

  private static final String PREFIX = "rollups-";
  private static final String SUFFIX = ".rollup";
  private static final DateTimeFormatter HOUR_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMdd-HH").withZone(ZoneOffset.UTC);

  private RollupFormat() {}

  /** Returns the name of the file of hour {@code hour} (epoch hours) written by run {@code run}. */
  static String fileName(long hour, long run) {
    return PREFIX
        + HOUR_FORMAT.format(Instant.ofEpochMilli(hour * HOUR_MILLIS))
        + "."
        + run
        + SUFFIX;
  }

  /** Returns the hour (epoch hours) a file name stands for, or -1 if it is not a roll-up file. */
  static long hourOf(String fileName) {
    if (!fileName.startsWith(PREFIX) || !fileName.endsWith(SUFFIX)) {
      return -1;
    }
    int dot = fileName.indexOf('.', PREFIX.length());
    if (dot < 0) {
      return -1;
    }
    try {
      String hour = fileName.substring(PREFIX.length(), dot);
      return LocalDateTime.parse(hour, HOUR_FORMAT).toEpochSecond(ZoneOffset.UTC) / 3600;
    } catch (DateTimeParseException e) {
      return -1;
    }
  }

  /** Returns the CRC-32 of a block's type, length and payload (from position to limit). */
  static int crc(CRC32 crc, byte type, ByteBuffer payload) {
    crc.reset();
    crc.update(type);
    int length = payload.remaining();
    crc.update(length >>> 24);
    crc.update(length >>> 16);
    crc.update(length >>> 8);
    crc.update(length);
    crc.update(payload.duplicate());
    return (int) crc.getValue();
  }
}
