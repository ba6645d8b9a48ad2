package io.bulwark.health.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a finding is stored. Version 1: id, kind, node, GPU index, severity, state, first and last
 * seen, resolved at, summary, the evidence as (name, value) pairs, recommended action, performance
 * factor, occurrences, then the GPU's UUID (absent from records of the earliest releases, read as
 * empty).
 */
final class FindingFormat implements RecordFormat<Finding> {
  static final FindingFormat INSTANCE = new FindingFormat();
  private static final int VERSION = 1;

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public void write(Finding f, DataOutputStream out) throws IOException {
    out.writeUTF(f.id());
    out.writeUTF(f.kind());
    out.writeUTF(f.node().value());
    out.writeInt(f.gpu());
    out.writeUTF(f.severity().name());
    out.writeUTF(f.state().name());
    Records.writeInstant(out, f.firstSeen());
    Records.writeInstant(out, f.lastSeen());
    Records.writeInstant(out, f.resolvedAt());
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
  }

  @Override
  public Finding read(int version, DataInputStream in) throws IOException {
    if (version != VERSION) {
      throw Records.unknownVersion("finding", version, VERSION);
    }
    String id = in.readUTF();
    String kind = in.readUTF();
    NodeId node = NodeId.of(in.readUTF());
    int gpu = in.readInt();
    Severity severity = Severity.valueOf(in.readUTF());
    FindingState state = FindingState.valueOf(in.readUTF());
    Instant first = Records.readInstant(in);
    Instant last = Records.readInstant(in);
    Instant resolved = Records.readInstant(in);
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
  }
}
