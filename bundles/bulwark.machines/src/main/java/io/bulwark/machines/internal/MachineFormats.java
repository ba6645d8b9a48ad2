package io.bulwark.machines.internal;

import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The machines' maps in the store: {@code machines} (by id), {@code machines.history} (by id: the
 * machine's newest {@link #MAX_HISTORY} events) and {@code machines.inventory} (by id: the hardware
 * its BMC reported at the latest probe). Enum values are stored by name, so reordering an enum
 * never changes what a record means.
 */
final class MachineFormats {
  static final int MAX_HISTORY = 500;
  static final int MAX_LIST = 4096;

  static final StoreMap<String, Machine> MACHINES =
      StoreMap.byName("machines", new MachineFormat());
  static final StoreMap<String, List<MachineEvent>> HISTORY =
      StoreMap.byName("machines.history", new HistoryFormat());
  static final StoreMap<String, BmcInventory> INVENTORY =
      StoreMap.byName("machines.inventory", new InventoryFormat());

  /** The most components an inventory keeps (a BMC listing more is cut there). */
  static final int MAX_COMPONENTS = 2048;

  private MachineFormats() {}

  /**
   * A machine. Version 2 adds the BMC's system after its pinned fingerprint; a version 1 record
   * reads as a BMC that names no system.
   */
  static final class MachineFormat implements RecordFormat<Machine> {
    @Override
    public int version() {
      return 2;
    }

    @Override
    public void write(Machine m, DataOutputStream out) throws IOException {
      out.writeUTF(m.id().value());
      out.writeUTF(m.hostname());
      strings(out, m.macs());
      out.writeBoolean(m.bmc() != null);
      if (m.bmc() != null) {
        out.writeUTF(m.bmc().protocol().name());
        out.writeUTF(m.bmc().address());
        out.writeInt(m.bmc().port());
        out.writeUTF(m.bmc().credentialRef());
        out.writeUTF(m.bmc().pinnedSha256());
        out.writeUTF(m.bmc().system());
      }
      out.writeUTF(m.rack());
      out.writeUTF(m.zone());
      strings(out, List.copyOf(new TreeSet<>(m.tags())));
      out.writeUTF(m.state().name());
      out.writeUTF(m.stateReason());
      Records.writeInstant(out, m.stateSince());
      Records.writeInstant(out, m.stateDeadline());
      out.writeUTF(m.returnState() == null ? "" : m.returnState().name());
      out.writeUTF(m.owner());
      out.writeBoolean(m.locked());
      out.writeUTF(m.node() == null ? "" : m.node().value());
      out.writeUTF(m.power().name());
      out.writeUTF(m.bmcError());
      out.writeUTF(m.presentedSha256());
      out.writeUTF(m.pending());
      Records.writeInstant(out, m.created());
    }

    @Override
    public Machine read(int version, DataInputStream in) throws IOException {
      if (version != 1 && version != 2) {
        throw Records.unknownVersion("machine", version, 2);
      }
      MachineId id = MachineId.of(in.readUTF());
      String hostname = in.readUTF();
      List<String> macs = strings(in);
      BmcEndpoint bmc = null;
      if (in.readBoolean()) {
        bmc =
            new BmcEndpoint(
                BmcProtocol.valueOf(in.readUTF()),
                in.readUTF(),
                in.readInt(),
                in.readUTF(),
                in.readUTF(),
                version >= 2 ? in.readUTF() : "");
      }
      String rack = in.readUTF();
      String zone = in.readUTF();
      Set<String> tags = Set.copyOf(strings(in));
      MachineState state = MachineState.valueOf(in.readUTF());
      String reason = in.readUTF();
      var since = Records.readInstant(in);
      var deadline = Records.readInstant(in);
      String ret = in.readUTF();
      String owner = in.readUTF();
      boolean locked = in.readBoolean();
      String node = in.readUTF();
      PowerState power = PowerState.valueOf(in.readUTF());
      String bmcError = in.readUTF();
      String presented = in.readUTF();
      String pending = in.readUTF();
      var created = Records.readInstant(in);
      return new Machine(
          id,
          hostname,
          macs,
          bmc,
          rack,
          zone,
          tags,
          state,
          reason,
          since,
          deadline,
          ret.isEmpty() ? null : MachineState.valueOf(ret),
          owner,
          locked,
          node.isEmpty() ? null : NodeId.of(node),
          power,
          bmcError,
          presented,
          pending,
          created);
    }
  }

  static final class HistoryFormat implements RecordFormat<List<MachineEvent>> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(List<MachineEvent> events, DataOutputStream out) throws IOException {
      out.writeInt(events.size());
      for (MachineEvent e : events) {
        out.writeLong(e.seq());
        out.writeUTF(e.machine().value());
        Records.writeInstant(out, e.at());
        out.writeUTF(e.operation());
        out.writeUTF(e.from().name());
        out.writeUTF(e.to().name());
        out.writeUTF(e.by());
        out.writeUTF(e.reason());
      }
    }

    @Override
    public List<MachineEvent> read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("machine history", version, 1);
      }
      int n = in.readInt();
      if (n < 0 || n > MAX_HISTORY) {
        throw new IOException("a machine history of " + n + " events");
      }
      List<MachineEvent> events = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        events.add(
            new MachineEvent(
                in.readLong(),
                MachineId.of(in.readUTF()),
                Records.readInstant(in),
                in.readUTF(),
                MachineState.valueOf(in.readUTF()),
                MachineState.valueOf(in.readUTF()),
                in.readUTF(),
                in.readUTF()));
      }
      return events;
    }
  }

  static final class InventoryFormat implements RecordFormat<BmcInventory> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(BmcInventory inventory, DataOutputStream out) throws IOException {
      List<BmcInventory.Component> parts = inventory.components();
      int n = Math.min(parts.size(), MAX_COMPONENTS);
      out.writeInt(n);
      for (BmcInventory.Component c : parts.subList(0, n)) {
        out.writeUTF(c.kind().name());
        out.writeUTF(c.id());
        out.writeUTF(c.name());
        out.writeUTF(c.manufacturer());
        out.writeUTF(c.model());
        out.writeUTF(c.serial());
        Map<String, String> details = new TreeMap<>(c.details());
        out.writeInt(details.size());
        for (Map.Entry<String, String> d : details.entrySet()) {
          out.writeUTF(d.getKey());
          out.writeUTF(d.getValue());
        }
      }
    }

    @Override
    public BmcInventory read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("machine inventory", version, 1);
      }
      int n = in.readInt();
      if (n < 0 || n > MAX_COMPONENTS) {
        throw new IOException("an inventory of " + n + " components");
      }
      List<BmcInventory.Component> parts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        BmcInventory.Kind kind = BmcInventory.Kind.valueOf(in.readUTF());
        String id = in.readUTF();
        String name = in.readUTF();
        String manufacturer = in.readUTF();
        String model = in.readUTF();
        String serial = in.readUTF();
        int d = in.readInt();
        if (d < 0 || d > MAX_LIST) {
          throw new IOException("a component with " + d + " details");
        }
        Map<String, String> details = new TreeMap<>();
        for (int j = 0; j < d; j++) {
          details.put(in.readUTF(), in.readUTF());
        }
        parts.add(new BmcInventory.Component(kind, id, name, manufacturer, model, serial, details));
      }
      return new BmcInventory(parts);
    }
  }

  private static void strings(DataOutputStream out, List<String> values) throws IOException {
    out.writeInt(values.size());
    for (String v : values) {
      out.writeUTF(v);
    }
  }

  private static List<String> strings(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_LIST) {
      throw new IOException("a list of " + n + " values");
    }
    List<String> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(in.readUTF());
    }
    return values;
  }
}
