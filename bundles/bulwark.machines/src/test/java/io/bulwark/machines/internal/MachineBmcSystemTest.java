package io.bulwark.machines.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.store.Records;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.InMemorySecrets;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The BMC's system (which of the systems a blade enclosure's BMC manages is the machine): taken
 * from the JSON and the inventory CSV, refused where it is no usable name, kept in the store across
 * a restart and when an admin sets the BMC again, shown by the API, and absent (the first system)
 * for a machine stored before the field existed.
 */
class MachineBmcSystemTest {
  @TempDir Path dir;
  private final InMemorySecrets secrets = new InMemorySecrets();

  private MachineRegistry registry(MapDbRecordStore store) {
    Map<MachineState, Duration> timeouts = new EnumMap<>(MachineState.class);
    for (MachineState s : MachineState.values()) {
      if (s.isTransient()) {
        timeouts.put(s, Duration.ofMinutes(30));
      }
    }
    return new MachineRegistry(store, secrets, timeouts, Clock.systemUTC());
  }

  private static JsonObject blade(String system) {
    JsonObject bmc =
        new JsonObject()
            .put("address", "10.2.0.40")
            .put("username", "root")
            .put("password", "calvin-7");
    if (system != null) {
      bmc.put("system", system);
    }
    return new JsonObject().put("hostname", "blade-3").put("bmc", bmc);
  }

  @Test
  void aNamedSystemIsKeptAcrossARestartAndWhenTheBmcIsSetAgainAndIsShown() throws Exception {
    MachineInput.Parsed in = MachineInput.parse(blade("3"));
    assertThat(in.machine().bmc().system()).isEqualTo("3");
    MachineId id = in.machine().id();
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Machine m = registry(store).add(in.machine(), in.username(), in.password(), "admin");
      assertThat(m.bmc().system()).isEqualTo("3");
      assertThat(m.bmc().credentialRef()).isEqualTo(MachineRegistry.secretName(id));
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      Machine m = r.machine(id).orElseThrow();
      assertThat(m.bmc().system()).as("read back from the store").isEqualTo("3");
      assertThat(MachineRoutes.json(m).getJsonObject("bmc").getString("system")).isEqualTo("3");
      MachineInput.Bmc again =
          MachineInput.bmc(blade("/redfish/v1/Systems/2").getJsonObject("bmc"));
      Machine set = r.setBmc(id, again.endpoint(), again.username(), again.password(), "admin");
      assertThat(set.bmc().system()).isEqualTo("/redfish/v1/Systems/2");
      assertThat(r.machine(id).orElseThrow().bmc().system()).isEqualTo("/redfish/v1/Systems/2");
    }
  }

  @Test
  void withoutASystemTheBmcNamesNoneAndTheApiShowsNull() {
    MachineInput.Parsed in = MachineInput.parse(blade(null));
    assertThat(in.machine().bmc().system()).isEmpty();
    List<JsonObject> rows =
        MachineInput.csv(
            "hostname,bmc_address,bmc_username,bmc_password,bmc_system\n"
                + "blade-4,10.2.0.40,root,pw,4\n"
                + "blade-5,10.2.0.40,root,pw,\n");
    assertThat(MachineInput.parse(rows.get(0)).machine().bmc().system()).isEqualTo("4");
    assertThat(MachineInput.parse(rows.get(1)).machine().bmc().system()).isEmpty();
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Machine m = registry(store).add(in.machine(), in.username(), in.password(), "admin");
      JsonObject bmc = MachineRoutes.json(m).getJsonObject("bmc");
      assertThat(bmc.containsKey("system")).isTrue();
      assertThat(bmc.getValue("system")).isNull();
    }
  }

  @Test
  void aSystemThatIsNoUsableNameIsRefusedNamingIt() {
    assertThatThrownBy(() -> MachineInput.parse(blade("3; reboot")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a BMC system: '3; reboot'");
    assertThatThrownBy(() -> MachineInput.parse(blade("/redfish/v1/Systems/../Managers")))
        .hasMessageContaining("not a BMC system");
    assertThatThrownBy(() -> MachineInput.parse(blade("x".repeat(129))))
        .hasMessageContaining("at most 128");
    assertThatThrownBy(
            () ->
                MachineInput.parse(
                    blade(null).put("bmc", blade(null).getJsonObject("bmc").put("system", 3))))
        .hasMessageContaining("'system' is text");
  }

  @Test
  void aMachineStoredInTheFirstFormatStillLoadsAndTheSecondKeepsTheSystem() throws Exception {
    Instant created = Instant.parse("2026-11-30T10:00:00Z");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      // The layout of format version 1, as machines were stored before the BMC's system.
      out.writeUTF("dgx-a07");
      out.writeUTF("dgx-a07.site");
      out.writeInt(1);
      out.writeUTF("02:42:ac:11:00:07");
      out.writeBoolean(true);
      out.writeUTF("REDFISH");
      out.writeUTF("10.2.0.17");
      out.writeInt(443);
      out.writeUTF("machine.bmc.dgx-a07");
      out.writeUTF("");
      out.writeUTF("r07");
      out.writeUTF("hall-a");
      out.writeInt(1);
      out.writeUTF("h100");
      out.writeUTF("READY");
      out.writeUTF("commissioned");
      Records.writeInstant(out, created);
      Records.writeInstant(out, null);
      out.writeUTF("");
      out.writeUTF("");
      out.writeBoolean(false);
      out.writeUTF("");
      out.writeUTF("ON");
      out.writeUTF("");
      out.writeUTF("");
      out.writeUTF("");
      Records.writeInstant(out, created);
    }
    MachineFormats.MachineFormat format = new MachineFormats.MachineFormat();
    Machine old =
        format.read(1, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertThat(old.bmc())
        .isEqualTo(
            new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "machine.bmc.dgx-a07", ""));
    assertThat(old.bmc().system()).isEmpty();
    assertThat(old.state()).isEqualTo(MachineState.READY);
    assertThat(old.power()).isEqualTo(PowerState.ON);
    assertThat(old.tags()).containsExactly("h100");
    assertThat(old.created()).isEqualTo(created);

    assertThat(format.version()).isEqualTo(2);
    Machine named =
        old.withBmc(
            new BmcEndpoint(
                BmcProtocol.REDFISH, "10.2.0.17", 443, "machine.bmc.dgx-a07", "", "Blade3"));
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(again)) {
      format.write(named, out);
    }
    Machine read =
        format.read(2, new DataInputStream(new ByteArrayInputStream(again.toByteArray())));
    assertThat(read.bmc().system()).isEqualTo("Blade3");
    assertThat(read).isEqualTo(named);
  }
}
