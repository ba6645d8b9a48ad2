package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the connector says when the appliance's Slurm client is not usable: commands missing, a
 * slurm.conf that is not there, a command that hangs or prints something else. The commands here
 * are small scripts standing in for scontrol, sinfo and squeue in a folder of their own.
 */
class SlurmConnectorFailuresTest {
  @TempDir Path dir;

  @Test
  void namesTheMissingCommandAndThePackageThatHasIt() {
    SlurmConnector slurm = connector(dir.resolve("empty"), Optional.empty(), 5);

    assertThatThrownBy(() -> slurm.drain("gpu01", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessage(
            "slurm: cannot run "
                + dir.resolve("empty/scontrol")
                + " to drain gpu01: there is no such file; install the Slurm client commands on"
                + " the appliance (Debian: apt-get install slurm-client) or set binDir to the"
                + " folder that holds scontrol, sinfo and squeue");
  }

  @Test
  void namesAConfiguredSlurmConfThatIsNotThereInsteadOfWaitingForIt() throws Exception {
    Path bin = tools("echo should not run >&2; exit 3");
    SlurmConnector slurm = connector(bin, Optional.of(dir.resolve("slurm.conf")), 5);

    assertThatThrownBy(slurm::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining(
            "slurm: cannot list its nodes: the configured slurmConf "
                + dir.resolve("slurm.conf")
                + " does not exist");
  }

  @Test
  void stopsACommandThatRunsPastTheTimeoutAndSaysSo() throws Exception {
    Path bin = tools("echo $$ > \"$0.pid\"; exec sleep 30");
    SlurmConnector slurm = connector(bin, Optional.empty(), 1);

    long began = System.nanoTime();
    assertThatThrownBy(() -> slurm.drain("gpu01", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "slurm: scontrol did not answer within 1 s when asked to drain gpu01 and was stopped");
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));

    long pid = Long.parseLong(Files.readString(bin.resolve("scontrol.pid")).strip());
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
        .as("scontrol")
        .isNotEqualTo(Optional.of(true));
  }

  @Test
  void saysWhatSinfoPrintedWhenItIsNotItsJsonListing() throws Exception {
    Path bin = tools("echo 'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST'");
    SlurmConnector slurm = connector(bin, Optional.empty(), 5);

    assertThatThrownBy(() -> slurm.node("gpu01"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "slurm: asked to show node gpu01, " + bin.resolve("sinfo") + " --json answered with")
        .hasMessageContaining("not a Slurm 22.05 sinfo --json listing");
  }

  @Test
  void passesOnWhatScontrolSaysWithAdviceForAUserWhoMayNotUpdateNodes() throws Exception {
    Path bin = tools("echo 'slurm_update error: Access/permission denied' >&2; exit 1");
    SlurmConnector slurm = connector(bin, Optional.empty(), 5);

    assertThatThrownBy(() -> slurm.resume("gpu01", "repaired"))
        .isInstanceOf(SchedulerException.class)
        .hasMessage(
            "slurm: scontrol refused to resume gpu01: slurm_update error: Access/permission"
                + " denied; run the appliance's Slurm commands as root or as the cluster's"
                + " SlurmUser, or give its user AdminLevel=Operator (sacctmgr modify user <user>"
                + " set adminlevel=operator)");
  }

  @Test
  void givesTheCommandsNoSlurmVariableOfTheAppliancesOwnButTheConfiguredSlurmConf()
      throws Exception {
    Path conf = Files.writeString(dir.resolve("slurm.conf"), "ClusterName=test\n");
    Path bin = tools("env | grep -E '^(SLURM|SQUEUE|SINFO|SCONTROL)_' >&2; exit 1");
    SlurmConnector slurm = connector(bin, Optional.of(conf), 5);

    assertThatThrownBy(() -> slurm.drain("gpu01", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("refused to drain gpu01: SLURM_CONF=" + conf + ";");
  }

  @Test
  void leavesTheAppliancesSlurmConfToTheCommandsWhenNoneIsConfigured() throws Exception {
    Path bin = tools("env | grep -E '^(SLURM|SQUEUE|SINFO|SCONTROL)_' >&2; exit 1");
    SlurmConnector slurm = connector(bin, Optional.empty(), 5);

    assertThatThrownBy(() -> slurm.drain("gpu01", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining(
            "refused to drain gpu01: SLURM_CONF=" + System.getenv("SLURM_CONF") + ";");
    assertThat(System.getenv("SLURM_CONF")).as("set by the build").isNotBlank();
  }

  private SlurmConnector connector(Path bin, Optional<Path> conf, int seconds) {
    return new SlurmConnector(new SlurmOptions("slurm", conf, bin, Duration.ofSeconds(seconds)));
  }

  /** A folder with scontrol, sinfo and squeue that all run {@code body} with /bin/sh. */
  private Path tools(String body) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String tool : new String[] {"scontrol", "sinfo", "squeue"}) {
      Path script = bin.resolve(tool);
      Files.writeString(script, "#!/bin/sh\n" + body + "\n");
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return bin;
  }
}
