package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SeriesId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.zip.CRC32;

/**
 * The history file of one archived hour: every series' ten-minute roll-ups, grouped by node, with
 * an index of the nodes at the end, so that a node's week is 168 small reads rather than a scan of
 * every series of every hour file. Named {@code history-YYYYMMDD-HH.summary}, next to the roll-up
 * files it is built from ({@link HistorySummaries}). Blocks are framed as in {@link RollupFormat}
 * (type byte, payload length, payload, CRC-32, big-endian):
 *
 * <ul>
 *   <li>{@code H} (first): magic {@code BWHS}, format version, start of the hour (epoch ms),
 *       minutes per bucket;
 *   <li>{@code N} per node: the node (modified UTF-8), the series count, then per series its GPU
 *       (short, -1 for node level), metric (UTF-8) and per bucket min, avg, max (floats) and the
 *       sample count (int, 0 for a bucket without samples);
 *   <li>{@code I} (last block): the node count, then per node its name, the offset and length of
 *       its block;
 *   <li>a trailer of 12 bytes, not framed: the offset of the index block (long) and magic {@code
 *       BWHI}.
 * </ul>
 *
 * A file is written to a temporary name and moved into place whole, so a crash leaves either the
 * complete file or none; a block that does not check out is reported as an {@link IOException}
 * naming the file and offset.
 */
final class HistoryFile {
  static final int BUCKET_MINUTES = 10;
  static final int BUCKETS = 60 / BUCKET_MINUTES;
  static final long BUCKET_MILLIS = BUCKET_MINUTES * MinuteRollups.MINUTE_MILLIS;

  private static final byte HEADER = 'H';
  private static final byte NODE = 'N';
  private static final byte INDEX = 'I';
  private static final int MAGIC = 0x42574853;
  private static final int INDEX_MAGIC = 0x42574849;
  private static final int VERSION = 1;
  private static final int TRAILER_BYTES = 12;
  private static final String PREFIX = "history-";
  private static final String SUFFIX = ".summary";
  private static final DateTimeFormatter HOUR_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMdd-HH").withZone(ZoneOffset.UTC);

  private HistoryFile() {}

  /**
   * The ten-minute buckets of one series over one hour.
   *
   * @param min per bucket, the smallest value
   * @param avg per bucket, the mean
   * @param max per bucket, the largest value
   * @param count per bucket, how many samples (0: none)
   */
  record Buckets(float[] min, float[] avg, float[] max, int[] count) {
    static Buckets empty() {
      return new Buckets(
          new float[BUCKETS], new float[BUCKETS], new float[BUCKETS], new int[BUCKETS]);
    }

    /** Folds one minute's roll-up into bucket {@code b}. */
    void add(int b, float minValue, float avgValue, float maxValue, int samples) {
      if (samples <= 0) {
        return;
      }
      int before = count[b];
      if (before == 0) {
        min[b] = minValue;
        avg[b] = avgValue;
        max[b] = maxValue;
      } else {
        min[b] = Math.min(min[b], minValue);
        max[b] = Math.max(max[b], maxValue);
        avg[b] =
            (float) (((double) avg[b] * before + (double) avgValue * samples) / (before + samples));
      }
      count[b] = before + samples;
    }
  }

  /** Returns the name of the history file of hour {@code hour} (epoch hours). */
  static String fileName(long hour) {
    return PREFIX
        + HOUR_FORMAT.format(Instant.ofEpochMilli(hour * RollupFormat.HOUR_MILLIS))
        + SUFFIX;
  }

  /** Returns the hour (epoch hours) a file name stands for, or -1 if it is not a history file. */
  static long hourOf(String fileName) {
    if (!fileName.startsWith(PREFIX) || !fileName.endsWith(SUFFIX)) {
      return -1;
    }
    try {
      String hour = fileName.substring(PREFIX.length(), fileName.length() - SUFFIX.length());
      return LocalDateTime.parse(hour, HOUR_FORMAT).toEpochSecond(ZoneOffset.UTC) / 3600;
    } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
      return -1;
    }
  }

  /**
   * Writes the history file of {@code hour} into {@code folder}: {@code byNode} holds, per node in
   * name order, its series and their buckets. Written to a temporary file, forced, then moved into
   * place.
   *
   * @throws IOException if it cannot be written; no partial file is left under the final name
   */
  static Path write(
      Path folder, long hour, SortedMap<String, ? extends Map<SeriesId, Buckets>> byNode)
      throws IOException {
    Path target = folder.resolve(fileName(hour));
    Path temp = folder.resolve(fileName(hour) + ".tmp");
    CRC32 crc = new CRC32();
    try (FileChannel channel =
        FileChannel.open(
            temp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer header = ByteBuffer.allocate(20);
      header.putInt(MAGIC).putInt(VERSION).putLong(hour * RollupFormat.HOUR_MILLIS);
      header.putInt(BUCKET_MINUTES).flip();
      long offset = writeBlock(channel, crc, HEADER, header, 0);
      List<String> names = new ArrayList<>();
      List<long[]> places = new ArrayList<>();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
      for (Map.Entry<String, ? extends Map<SeriesId, Buckets>> node : byNode.entrySet()) {
        bytes.reset();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
          out.writeUTF(node.getKey());
          out.writeInt(node.getValue().size());
          for (Map.Entry<SeriesId, Buckets> e : node.getValue().entrySet()) {
            out.writeShort(e.getKey().gpu());
            out.writeUTF(e.getKey().metric());
            Buckets b = e.getValue();
            for (int i = 0; i < BUCKETS; i++) {
              out.writeFloat(b.min[i]);
              out.writeFloat(b.avg[i]);
              out.writeFloat(b.max[i]);
              out.writeInt(b.count[i]);
            }
          }
        }
        long end = writeBlock(channel, crc, NODE, ByteBuffer.wrap(bytes.toByteArray()), offset);
        names.add(node.getKey());
        places.add(new long[] {offset, end - offset});
        offset = end;
      }
      bytes.reset();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeInt(names.size());
        for (int i = 0; i < names.size(); i++) {
          out.writeUTF(names.get(i));
          out.writeLong(places.get(i)[0]);
          out.writeInt((int) places.get(i)[1]);
        }
      }
      long indexOffset = offset;
      offset = writeBlock(channel, crc, INDEX, ByteBuffer.wrap(bytes.toByteArray()), offset);
      ByteBuffer trailer = ByteBuffer.allocate(TRAILER_BYTES);
      trailer.putLong(indexOffset).putInt(INDEX_MAGIC).flip();
      while (trailer.hasRemaining()) {
        channel.write(trailer, offset + trailer.position());
      }
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return target;
  }

  private static long writeBlock(
      FileChannel channel, CRC32 crc, byte type, ByteBuffer payload, long offset)
      throws IOException {
    ByteBuffer head = ByteBuffer.allocate(RollupFormat.FRAME_HEAD_BYTES);
    head.put(type).putInt(payload.remaining()).flip();
    ByteBuffer tail = ByteBuffer.allocate(RollupFormat.CRC_BYTES);
    tail.putInt(RollupFormat.crc(crc, type, payload)).flip();
    long at = offset;
    for (ByteBuffer part : new ByteBuffer[] {head, payload, tail}) {
      while (part.hasRemaining()) {
        at += channel.write(part, at);
      }
    }
    return at;
  }

  /**
   * Reads the buckets of {@code node}'s series whose metric is in {@code metrics} from the history
   * file {@code file}, adding to {@code into} every bucket that holds samples and starts at or
   * after {@code fromMillis}. Returns false if the file does not hold the node.
   *
   * @throws IOException if the file cannot be read or a block in the way does not check out; the
   *     message names the file and the offset
   */
  static boolean read(
      Path file,
      NodeId node,
      Set<String> metrics,
      long fromMillis,
      Map<SeriesId, List<Rollup>> into)
      throws IOException {
    CRC32 crc = new CRC32();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size < TRAILER_BYTES) {
        throw corrupt(file, 0, "it is shorter than its trailer");
      }
      ByteBuffer trailer = readAt(channel, size - TRAILER_BYTES, TRAILER_BYTES);
      long indexOffset = trailer.getLong();
      if (trailer.getInt() != INDEX_MAGIC || indexOffset < 0 || indexOffset >= size) {
        throw corrupt(file, size - TRAILER_BYTES, "its trailer does not name an index");
      }
      ByteBuffer header = readBlock(file, channel, crc, 0, size, HEADER);
      if (header.getInt() != MAGIC || header.getInt() != VERSION) {
        throw corrupt(file, 0, "it is not a version " + VERSION + " history file");
      }
      long hourStart = header.getLong();
      if (header.getInt() != BUCKET_MINUTES) {
        throw corrupt(file, 0, "its buckets are not " + BUCKET_MINUTES + " minutes");
      }
      ByteBuffer index = readBlock(file, channel, crc, indexOffset, size, INDEX);
      long nodeOffset = -1;
      try (DataInputStream in = stream(index)) {
        int nodes = in.readInt();
        for (int i = 0; i < nodes && nodeOffset < 0; i++) {
          String name = in.readUTF();
          long offset = in.readLong();
          in.readInt();
          if (name.equals(node.value())) {
            nodeOffset = offset;
          }
        }
      }
      if (nodeOffset < 0) {
        return false;
      }
      ByteBuffer block = readBlock(file, channel, crc, nodeOffset, indexOffset, NODE);
      try (DataInputStream in = stream(block)) {
        if (!in.readUTF().equals(node.value())) {
          throw corrupt(file, nodeOffset, "the index points at another node's block");
        }
        int series = in.readInt();
        for (int s = 0; s < series; s++) {
          int gpu = in.readShort();
          String metric = in.readUTF();
          boolean wanted = metrics.contains(metric);
          List<Rollup> list = null;
          for (int b = 0; b < BUCKETS; b++) {
            float min = in.readFloat();
            float avg = in.readFloat();
            float max = in.readFloat();
            int count = in.readInt();
            long start = hourStart + b * BUCKET_MILLIS;
            if (wanted && count > 0 && start >= fromMillis) {
              if (list == null) {
                list = into.computeIfAbsent(SeriesId.of(node, gpu, metric), k -> new ArrayList<>());
              }
              list.add(new Rollup(start, BUCKET_MILLIS, min, avg, max, count));
            }
          }
        }
      }
      return true;
    }
  }

  private static DataInputStream stream(ByteBuffer payload) {
    return new DataInputStream(
        new ByteArrayInputStream(payload.array(), payload.arrayOffset(), payload.limit()));
  }

  private static ByteBuffer readBlock(
      Path file, FileChannel channel, CRC32 crc, long offset, long end, byte type)
      throws IOException {
    if (end - offset < RollupFormat.FRAME_HEAD_BYTES + RollupFormat.CRC_BYTES) {
      throw corrupt(file, offset, "too few bytes are left for a block");
    }
    ByteBuffer head = readAt(channel, offset, RollupFormat.FRAME_HEAD_BYTES);
    byte found = head.get();
    int length = head.getInt();
    if (found != type) {
      throw corrupt(
          file, offset, "a block of type " + (char) found + " where " + (char) type + " belongs");
    }
    if (length < 0
        || length > RollupFormat.MAX_PAYLOAD
        || length > end - offset - RollupFormat.FRAME_HEAD_BYTES - RollupFormat.CRC_BYTES) {
      throw corrupt(file, offset, "impossible block length " + length);
    }
    ByteBuffer payload = readAt(channel, offset + RollupFormat.FRAME_HEAD_BYTES, length);
    int stored = readAt(channel, offset + RollupFormat.FRAME_HEAD_BYTES + length, 4).getInt();
    if (stored != RollupFormat.crc(crc, type, payload)) {
      throw corrupt(file, offset, "its CRC does not match");
    }
    return payload;
  }

  private static ByteBuffer readAt(FileChannel channel, long position, int length)
      throws IOException {
    ByteBuffer into = ByteBuffer.allocate(length);
    long at = position;
    while (into.hasRemaining()) {
      int read = channel.read(into, at);
      if (read < 0) {
        throw new IOException("the file ended while a block was read");
      }
      at += read;
    }
    return into.flip();
  }

  private static IOException corrupt(Path file, long offset, String problem) {
    return new IOException(
        "History file " + file + " is damaged at offset " + offset + ": " + problem);
  }
}
