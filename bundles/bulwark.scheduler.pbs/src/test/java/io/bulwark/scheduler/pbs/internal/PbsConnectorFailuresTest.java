package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerException;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the connector reports when pbsnodes is missing, cannot reach its server, refuses, hangs or
 * prints something else than a listing. No PBS server can run on the build machine, so the pbsnodes
 * test double (see its header for the documentation it follows) plays each failure.
 */
class PbsConnectorFailuresTest {
  @TempDir Path folder;

  private static JsonObject node(String state) {
    return new JsonObject().put("state", state);
  }

  @Test
  void aMissingPbsnodesNamesTheFileAndTheSetting() throws Exception {
    Path empty = Files.createDirectories(folder.resolve("nothing-here"));
    PbsConnector connector =
        new PbsConnector(
            new PbsOptions(
                "pbs",
                PbsFlavour.OPENPBS,
                empty.resolve("pbsnodes"),
                Optional.empty(),
                Duration.ofSeconds(5)));

    assertThatThrownBy(connector::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessage(
            "pbs: cannot run "
                + empty.resolve("pbsnodes")
                + " to list its nodes: there is no such file; install the PBS client commands on"
                + " the appliance or set binDir to the folder that holds pbsnodes");
  }

  @Test
  void aPbsnodesTheApplianceMayNotRunIsReported() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs", false);
    PbsConnector connector =
        new PbsConnector(pbs.options("openpbs", Optional.empty(), Duration.ofSeconds(5)));

    assertThatThrownBy(() -> connector.drain("gpu-a01", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("to drain gpu-a01: the appliance may not execute it");
  }

  @Test
  void anUnreachableServerIsReportedWithWhatPbsnodesSaid() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.node("gpu-a01", node("free"));
    pbs.fault(new JsonObject().put("cannot_connect", true));
    PbsConnector connector =
        new PbsConnector(pbs.options("openpbs", Optional.of("pbs-east"), Duration.ofSeconds(5)));

    assertThatThrownBy(connector::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("pbs: pbsnodes could not list its nodes: ")
        .hasMessageContaining("cannot connect to server pbs-east, error=15010")
        .hasMessageContaining("check that the PBS server pbs-east is up and reachable");
    assertThatThrownBy(() -> connector.drain("gpu-a01", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("pbsnodes refused to drain gpu-a01")
        .hasMessageContaining("cannot connect to server pbs-east");
  }

  @Test
  void aUserWithoutOperatorPrivilegeIsToldSo() {
    for (String flavour : new String[] {"openpbs", "torque"}) {
      PbsnodesDouble pbs = PbsnodesDouble.install(folder.resolve(flavour), flavour);
      pbs.node("gpu-a01", node("free"));
      pbs.fault(new JsonObject().put("not_operator", true));
      PbsConnector connector =
          new PbsConnector(pbs.options(flavour, Optional.empty(), Duration.ofSeconds(5)));

      assertThatThrownBy(() -> connector.drain("gpu-a01", "xid 79"))
          .as(flavour)
          .isInstanceOf(SchedulerException.class)
          .hasMessageContaining("Unauthorized Request")
          .hasMessageContaining("make the appliance's user a PBS manager or operator");
      assertThat(pbs.node("gpu-a01").getString("state")).isEqualTo("free");
    }
  }

  @Test
  void aPbsnodesThatHangsIsKilledAtTheTimeout() throws Exception {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.node("gpu-a01", node("free"));
    pbs.fault(new JsonObject().put("sleep", 60));
    PbsConnector connector =
        new PbsConnector(pbs.options("openpbs", Optional.empty(), Duration.ofSeconds(1)));

    long started = System.nanoTime();
    assertThatThrownBy(() -> connector.drain("gpu-a01", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessage(
            "pbs: pbsnodes did not answer within 1 s to drain gpu-a01 and was stopped; check"
                + " that the PBS server (the client's default) is up and reachable from the"
                + " appliance, or raise timeoutSeconds");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    String script = pbs.bin().resolve("pbsnodes").toString();
    assertThat(
            ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains(script)))
        .as("pbsnodes processes still running")
        .isEmpty();
    assertThat(pbs.node("gpu-a01").getString("state")).isEqualTo("free");
  }

  @Test
  void somethingElseThanAJsonListingIsNotTakenForNodes() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.fault(
        new JsonObject().put("stdout", "<html><body>503 Service Unavailable</body></html>\n"));
    PbsConnector connector =
        new PbsConnector(pbs.options("openpbs", Optional.empty(), Duration.ofSeconds(5)));

    assertThatThrownBy(connector::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("pbs: asked to list its nodes, ")
        .hasMessageContaining("pbsnodes -a -F json answered with something that is not a OpenPBS")
        .hasMessageContaining("not JSON")
        .hasMessageContaining("check that flavour (openpbs) matches the PBS installed");
    assertThatThrownBy(() -> connector.node("gpu-a01"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("not JSON");
  }

  @Test
  void jsonWithoutNodesIsNotTakenForAnEmptyCluster() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.fault(new JsonObject().put("stdout", "{\"timestamp\":1,\"pbs_version\":\"x\"}\n"));
    PbsConnector connector =
        new PbsConnector(pbs.options("openpbs", Optional.empty(), Duration.ofSeconds(5)));

    assertThatThrownBy(connector::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("its JSON has no \"nodes\" object");
  }

  @Test
  void somethingElseThanXmlIsNotTakenForTorqueNodes() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "torque");
    pbs.fault(new JsonObject().put("stdout", "{\"nodes\":{}}\n"));
    PbsConnector connector =
        new PbsConnector(pbs.options("torque", Optional.empty(), Duration.ofSeconds(5)));

    assertThatThrownBy(connector::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("pbsnodes -x answered with something that is not a Torque")
        .hasMessageContaining("not XML");
  }

  @Test
  void aWrongFlavourIsReportedAsSuch() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.node("gpu-a01", node("free"));
    PbsConnector connector =
        new PbsConnector(pbs.options("torque", Optional.empty(), Duration.ofSeconds(5)));

    assertThatThrownBy(connector::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("invalid option -- 'x'")
        .hasMessageContaining("does not take Torque's options; check that flavour (torque)");
    assertThatThrownBy(() -> connector.drain("gpu-a01", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("invalid option -- 'N'");
    assertThat(pbs.node("gpu-a01").getString("state")).isEqualTo("free");
  }

  @Test
  void anyOtherFailureIsReportedWithTheCommandToRun() {
    PbsnodesDouble pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.fault(
        new JsonObject().put("stderr", "pbsnodes: Bad UID for job execution\n").put("exit", 3));
    PbsConnector connector =
        new PbsConnector(pbs.options("openpbs", Optional.empty(), Duration.ofSeconds(5)));

    assertThatThrownBy(() -> connector.resume("gpu-a01", "fixed"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining(
            "pbs: pbsnodes refused to resume gpu-a01: pbsnodes: Bad UID for job execution; run ")
        .hasMessageEndingWith("pbsnodes -r -C '' gpu-a01 on the appliance to see what PBS says");
  }
}
