package io.bulwark.machines.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.machine.BmcProtocol;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A site inventory as CSV and one machine as JSON: what is taken, and what is refused, and why. */
class MachineInputTest {

  @Test
  void anInventoryCsvBecomesMachinesWithTheirBmcs() {
    String csv =
        "hostname,macs,rack,tags,bmc_address,bmc_port,bmc_username,bmc_password\r\n"
            + "DGX-A07,02:42:AC:11:00:07;02-42-ac-11-00-08,r07,h100;training,10.2.0.17,,root,\"pa,ss\"\"word\"\r\n"
            + "dgx-a08,,r07,,,,,\n"
            + "\n";
    List<JsonObject> rows = MachineInput.csv(csv);
    assertThat(rows).hasSize(2);
    MachineInput.Parsed a07 = MachineInput.parse(rows.get(0));
    assertThat(a07.machine().id().value()).isEqualTo("dgx-a07");
    assertThat(a07.machine().hostname()).isEqualTo("DGX-A07");
    assertThat(a07.machine().macs()).containsExactly("02:42:ac:11:00:07", "02:42:ac:11:00:08");
    assertThat(a07.machine().tags()).containsExactlyInAnyOrder("h100", "training");
    assertThat(a07.machine().bmc().protocol()).isEqualTo(BmcProtocol.REDFISH);
    assertThat(a07.machine().bmc().port()).isEqualTo(443);
    assertThat(a07.username()).isEqualTo("root");
    assertThat(new String(a07.password())).isEqualTo("pa,ss\"word");
    a07.clear();
    assertThat(new String(a07.password())).isEqualTo("\0".repeat(10));
    MachineInput.Parsed a08 = MachineInput.parse(rows.get(1));
    assertThat(a08.machine().bmc()).isNull();
    assertThat(a08.username()).isNull();
  }

  @Test
  void whatCannotBeUsedIsRefusedNamingTheValue() {
    assertThatThrownBy(() -> MachineInput.csv("hostname,colour\nx,blue\n"))
        .hasMessageContaining("unknown column 'colour'");
    assertThatThrownBy(() -> MachineInput.csv("rack\nr1\n")).hasMessageContaining("no 'hostname'");
    assertThatThrownBy(() -> MachineInput.csv("hostname,rack\nx\n"))
        .hasMessageContaining("row 2 has 1 fields");
    assertThatThrownBy(() -> MachineInput.csv("hostname\n\"open\n"))
        .hasMessageContaining("not closed");
    assertThatThrownBy(
            () ->
                MachineInput.parse(
                    new JsonObject().put("hostname", "x").put("macs", List.of("zz"))))
        .hasMessageContaining("'zz' is not a MAC address");
    assertThatThrownBy(
            () -> MachineInput.parse(new JsonObject().put("hostname", "x").put("id", "x y")))
        .hasMessageContaining("'x y' is not a usable machine id");
    assertThatThrownBy(
            () ->
                MachineInput.parse(
                    new JsonObject()
                        .put("hostname", "x")
                        .put(
                            "bmc",
                            new JsonObject().put("address", "10.0.0.1").put("username", "u"))))
        .hasMessageContaining("'password' is required");
    assertThatThrownBy(
            () ->
                MachineInput.parse(
                    new JsonObject()
                        .put("hostname", "x")
                        .put(
                            "bmc",
                            new JsonObject().put("address", "10.0.0.1").put("port", "http"))))
        .hasMessageContaining("'bmc.port' is a whole number, not 'http'");
  }

  @Test
  void aHostNameIsAnRfc1123NameAndNothingElse() {
    for (String bad :
        List.of(
            "<img src=x onerror=alert(1)><script>alert(2)</script>",
            "=HYPERLINK(\"http://evil.example/\",\"click\")",
            "+cmd",
            "@SUM(1+1)",
            "x y",
            "dgx_a07",
            "-dgx",
            "dgx-",
            "dgx..a07",
            "dgx.",
            ".dgx",
            "a".repeat(64),
            ("a".repeat(63) + ".").repeat(4) + "a".repeat(2),
            "dgx\nlocal-hostname: evil")) {
      assertThatThrownBy(() -> MachineInput.parse(new JsonObject().put("hostname", bad)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'hostname' is not a usable host name")
          .hasMessageContaining("RFC 1123");
    }
    for (String good :
        List.of(
            "dgx-a07",
            "DGX-A07.rack7.example.com",
            "10.2.0.17",
            "a",
            "a".repeat(63),
            ("a".repeat(63) + ".").repeat(3) + "a".repeat(61))) {
      assertThat(
              MachineInput.parse(new JsonObject().put("hostname", good).put("id", "m-1"))
                  .machine()
                  .hostname())
          .as(good)
          .isEqualTo(good);
    }
  }

  @Test
  void anInventoryRowWithAFormulaForAHostNameIsRefused() {
    List<JsonObject> rows = MachineInput.csv("hostname,rack\n=HYPERLINK(\"x\"),r07\n");
    assertThatThrownBy(() -> MachineInput.parse(rows.get(0)))
        .hasMessageContaining("'hostname' is not a usable host name");
  }
}
