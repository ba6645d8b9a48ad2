package io.bulwark.store.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.LifecycleState;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns nodes and findings into the bytes the store keeps, and back. Each record starts with a
 * format version so a later release can read what an earlier one wrote; an unknown version is an
 * error naming the record, never a guess.
 */
final class RecordCodec {
  private static final int NODE_FORMAT = 1;
  private static final int FINDING_FORMAT = 1;
  private static final long NO_INSTANT = Long.MIN_VALUE;

  private RecordCodec() {}

  static byte[] encode(Node node) {
    return write(
        out -> {
          out.writeByte(NODE_FORMAT);
          out.writeUTF(node.id().value());
          out.writeUTF(node.state().name());
          writeInstant(out, node.firstSeen());
          writeInstant(out, node.lastSeen());
          out.writeInt(node.gpus().size());
          for (Gpu gpu : node.gpus()) {
            out.writeInt(gpu.index());
            out.writeUTF(gpu.uuid());
            out.writeUTF(gpu.model());
          }
        });
  }

  static Node decodeNode(String key, byte[] bytes) {
    return read(
        key,
        bytes,
        in -> {
          checkFormat(key, in.readUnsignedByte(), NODE_FORMAT);
          NodeId id = NodeId.of(in.readUTF());
          LifecycleState state = LifecycleState.valueOf(in.readUTF());
          Instant first = readInstant(in);
          Instant last = readInstant(in);
          int count = in.readInt();
          List<Gpu> gpus = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            gpus.add(new Gpu(in.readInt(), in.readUTF(), in.readUTF()));
          }
          return new Node(id, state, gpus, first, last);
        });
  }

  static byte[] encode(Finding f) {
    return write(
        out -> {
          out.writeByte(FINDING_FORMAT);
          out.writeUTF(f.id());
          out.writeUTF(f.kind());
          out.writeUTF(f.node().value());
          out.writeInt(f.gpu());
          out.writeUTF(f.severity().name());
          out.writeUTF(f.state().name());
          writeInstant(out, f.firstSeen());
          writeInstant(out, f.lastSeen());
          writeInstant(out, f.resolvedAt());
          out.writeUTF(f.summary());
          out.writeInt(f.evidence().size());
          for (Map.Entry<String, String> e : f.evidence().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
          }
          out.writeUTF(f.recommendedAction());
          out.writeDouble(f.performanceFactor());
          out.writeLong(f.occurrences());
          out.writeUTF(f.gpuUuid());
        });
  }

  static Finding decodeFinding(String key, byte[] bytes) {
    return read(
        key,
        bytes,
        in -> {
          checkFormat(key, in.readUnsignedByte(), FINDING_FORMAT);
          String id = in.readUTF();
          String kind = in.readUTF();
          NodeId node = NodeId.of(in.readUTF());
          int gpu = in.readInt();
          Severity severity = Severity.valueOf(in.readUTF());
          FindingState state = FindingState.valueOf(in.readUTF());
          Instant first = readInstant(in);
          Instant last = readInstant(in);
          Instant resolved = readInstant(in);
          String summary = in.readUTF();
          int evidenceCount = in.readInt();
          Map<String, String> evidence = new LinkedHashMap<>();
          for (int i = 0; i < evidenceCount; i++) {
            evidence.put(in.readUTF(), in.readUTF());
          }
          String action = in.readUTF();
          double factor = in.readDouble();
          long occurrences = in.readLong();
          String uuid = in.available() > 0 ? in.readUTF() : "";
          return new Finding(
              id,
              kind,
              node,
              gpu,
              severity,
              state,
              first,
              last,
              resolved,
              summary,
              evidence,
              action,
              factor,
              occurrences,
              uuid);
        });
  }

  static void checkFormat(String key, int found, int expected) throws IOException {
    if (found != expected) {
      throw new IOException(
          "record '" + key + "' has format " + found + ", this release reads format " + expected);
    }
  }

  static void writeInstant(DataOutputStream out, Instant at) throws IOException {
    if (at == null) {
      out.writeLong(NO_INSTANT);
    } else {
      out.writeLong(at.getEpochSecond());
      out.writeInt(at.getNano());
    }
  }

  static Instant readInstant(DataInputStream in) throws IOException {
    long seconds = in.readLong();
    return seconds == NO_INSTANT ? null : Instant.ofEpochSecond(seconds, in.readInt());
  }

  interface Writer {
    void write(DataOutputStream out) throws IOException;
  }

  interface Reader<T> {
    T read(DataInputStream in) throws IOException;
  }

  static byte[] write(Writer writer) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writer.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static <T> T read(String key, byte[] bytes, Reader<T> reader) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      return reader.read(in);
    } catch (IOException | RuntimeException e) {
      throw new CorruptRecordException(
          "stored record '" + key + "' cannot be read: " + e.getMessage(), e);
    }
  }
}
