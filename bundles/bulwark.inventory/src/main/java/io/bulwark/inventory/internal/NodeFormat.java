package io.bulwark.inventory.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How a node of the inventory is stored. Version 2: id, first and last seen, then each GPU's index,
 * UUID and model. Version 1 (Bulwark 0.1) also held a life-cycle state after the id, which is read
 * and dropped: the machines' life cycle is their own.
 */
final class NodeFormat implements RecordFormat<Node> {
  static final NodeFormat INSTANCE = new NodeFormat();
  private static final int VERSION = 2;

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public void write(Node node, DataOutputStream out) throws IOException {
    out.writeUTF(node.id().value());
    Records.writeInstant(out, node.firstSeen());
    Records.writeInstant(out, node.lastSeen());
    out.writeInt(node.gpus().size());
    for (Gpu gpu : node.gpus()) {
      out.writeInt(gpu.index());
      out.writeUTF(gpu.uuid());
      out.writeUTF(gpu.model());
    }
  }

  @Override
  public Node read(int version, DataInputStream in) throws IOException {
    if (version < 1 || version > VERSION) {
      throw Records.unknownVersion("node", version, VERSION);
    }
    NodeId id = NodeId.of(in.readUTF());
    if (version == 1) {
      in.readUTF(); // the life-cycle state of 0.1
    }
    Instant first = Records.readInstant(in);
    Instant last = Records.readInstant(in);
    int count = in.readInt();
    List<Gpu> gpus = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      gpus.add(new Gpu(in.readInt(), in.readUTF(), in.readUTF()));
    }
    return new Node(id, gpus, first, last);
  }
}
