package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.SeriesId;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Appends framed, checksummed blocks to one new roll-up file ({@link RollupFormat}). Used by the
 * {@link RollupArchive}'s writer thread only; not thread-safe.
 */
final class RollupFileWriter implements AutoCloseable {
  private final Path file;
  private final FileChannel channel;
  private final CRC32 crc = new CRC32();
  private final ByteBuffer head = ByteBuffer.allocate(RollupFormat.FRAME_HEAD_BYTES);
  private final ByteBuffer tail = ByteBuffer.allocate(RollupFormat.CRC_BYTES);
  private final ByteBuffer[] frame = new ByteBuffer[3];

  private RollupFileWriter(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
  }

  /**
   * Creates {@code file} (it must not exist) and writes its header block.
   *
   * @throws IOException if the file exists or cannot be written
   */
  static RollupFileWriter create(Path file, long hour) throws IOException {
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    RollupFileWriter writer = new RollupFileWriter(file, channel);
    try {
      ByteBuffer header = ByteBuffer.allocate(16);
      header.putInt(RollupFormat.MAGIC).putInt(RollupFormat.VERSION);
      header.putLong(hour * RollupFormat.HOUR_MILLIS).flip();
      writer.writeBlock(RollupFormat.HEADER, header);
    } catch (IOException e) {
      writer.close();
      throw e;
    }
    return writer;
  }

  /** Writes one block of series, numbered from {@code firstIndex}. */
  void writeSeries(int firstIndex, List<SeriesId> series) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * series.size() + 8);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(firstIndex);
      out.writeInt(series.size());
      for (SeriesId id : series) {
        out.writeShort(id.gpu());
        out.writeUTF(id.node().value());
        out.writeUTF(id.metric());
      }
    }
    writeBlock(RollupFormat.SERIES, ByteBuffer.wrap(bytes.toByteArray()));
  }

  /** Writes a block of type {@code type} with the payload between position and limit. */
  void writeBlock(byte type, ByteBuffer payload) throws IOException {
    head.clear();
    head.put(type).putInt(payload.remaining()).flip();
    tail.clear();
    tail.putInt(RollupFormat.crc(crc, type, payload)).flip();
    frame[0] = head;
    frame[1] = payload;
    frame[2] = tail;
    while (tail.hasRemaining()) {
      channel.write(frame);
    }
  }

  /** Makes what was written durable. */
  void force() throws IOException {
    channel.force(false);
  }

  Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
