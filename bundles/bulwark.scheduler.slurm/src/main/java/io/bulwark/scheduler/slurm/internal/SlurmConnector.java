package io.bulwark.scheduler.slurm.internal;

import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The scheduler connector for Slurm, registered once its configuration (PID {@code
 * io.bulwark.scheduler.slurm}, or one factory configuration of that PID per further cluster)
 * exists. Every call runs the cluster's own client commands on the appliance, which must be a Slurm
 * client (munge with the cluster's key, the cluster's slurm.conf) whose user may update nodes
 * (root, SlurmUser, or AdminLevel=Operator): a drain is {@code scontrol update NodeName=<n>
 * State=DRAIN Reason=<reason>}, a resume {@code State=RESUME}; nodes, their state, reason and
 * partitions come from {@code sinfo --json} and their jobs from {@code squeue}. Nothing is cached
 * and every call is bounded by the timeout; calls may run on any thread, several at once. {@link
 * #evict} is the SPI's default: Slurm ends no job for a drain, so it answers whether the node runs
 * none.
 */
@Component(
    service = SchedulerConnector.class,
    configurationPid = "io.bulwark.scheduler.slurm",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = SlurmConfig.class)
public final class SlurmConnector implements SchedulerConnector {
  private static final Logger LOG = System.getLogger(SlurmConnector.class.getName());
  private static final int NODE_NAME_LIMIT = 255;

  private final SlurmOptions options;
  private final SlurmCommand command;

  @Activate
  public SlurmConnector(SlurmConfig config) {
    this(SlurmOptions.of(config));
  }

  /** A connector with these settings. */
  SlurmConnector(SlurmOptions options) {
    this.options = options;
    this.command = new SlurmCommand(options);
  }

  @Override
  public String name() {
    return options.name();
  }

  @Override
  public List<SchedulerNode> nodes() throws SchedulerException {
    Map<String, SinfoNode> listed = sinfo("list its nodes");
    Map<String, List<String>> jobs = squeue("list the jobs of its nodes", List.of());
    List<SchedulerNode> nodes = new ArrayList<>(listed.size());
    for (SinfoNode node : listed.values()) {
      nodes.add(SlurmNodeStates.node(node, jobs.getOrDefault(node.name(), List.of())));
    }
    return nodes;
  }

  /** Returns empty for a name that cannot be a Slurm node name, as for any other unknown node. */
  @Override
  public Optional<SchedulerNode> node(String name) throws SchedulerException {
    if (!isNodeName(name)) {
      return Optional.empty();
    }
    SinfoNode listed = sinfo("show node " + name).get(name);
    if (listed == null) {
      return Optional.empty();
    }
    List<String> jobs =
        squeue("list the jobs on " + name, List.of("--nodelist=" + name))
            .getOrDefault(name, List.of());
    return Optional.of(SlurmNodeStates.node(listed, jobs));
  }

  /**
   * Drains with Bulwark's reason ({@link SlurmText#drainReason}); draining a node that is draining
   * or drained succeeds and records the new reason.
   */
  @Override
  public void drain(String node, String reason) throws SchedulerException {
    checkName(node, "drain");
    String text = SlurmText.drainReason(reason);
    SlurmOutput out =
        command.run(
            "scontrol",
            "drain " + node,
            List.of("update", "NodeName=" + node, "State=DRAIN", "Reason=" + text));
    if (out.exitCode() != 0) {
      throw refused("drain", node, out);
    }
    LOG.log(Level.INFO, "{0}: drained {1} in Slurm with reason \"{2}\"", name(), node, text);
  }

  /**
   * Resumes the node; a node Slurm does not hold drained (scontrol then answers "Invalid node state
   * specified") is left as it is and the call succeeds.
   */
  @Override
  public void resume(String node, String reason) throws SchedulerException {
    checkName(node, "resume");
    SlurmOutput out =
        command.run(
            "scontrol", "resume " + node, List.of("update", "NodeName=" + node, "State=RESUME"));
    String why = SlurmText.oneLine(reason == null ? "" : reason);
    if (out.exitCode() == 0) {
      LOG.log(Level.INFO, "{0}: resumed {1} in Slurm ({2})", name(), node, why);
      return;
    }
    if (out.says("Invalid node state specified")) {
      Optional<SchedulerNode> now = node(node);
      if (now.isPresent() && !drainFlagged(now.get())) {
        LOG.log(
            Level.INFO,
            "{0}: {1} was not drained in Slurm ({2}); nothing to resume ({3})",
            name(),
            node,
            now.get().schedulerState(),
            why);
        return;
      }
    }
    throw refused("resume", node, out);
  }

  private Map<String, SinfoNode> sinfo(String purpose) throws SchedulerException {
    SlurmOutput out = command.run("sinfo", purpose, List.of("--json"));
    if (out.exitCode() != 0) {
      throw new SchedulerException(
          name() + ": sinfo could not " + purpose + ": " + out.said() + "; " + advice(out));
    }
    try {
      return SinfoJson.parse(out.stdout());
    } catch (SlurmOutputException e) {
      if (e.reportedBySlurm()) {
        throw new SchedulerException(
            name()
                + ": sinfo could not "
                + purpose
                + ": "
                + e.getMessage()
                + (out.stderr().isBlank() ? "" : " (" + out.said() + ")")
                + "; "
                + unreachableAdvice(),
            e);
      }
      throw new SchedulerException(
          name()
              + ": asked to "
              + purpose
              + ", "
              + out.commandLine()
              + " answered with something that is not a Slurm 22.05 sinfo --json listing ("
              + e.getMessage()
              + "); check that binDir holds the cluster's Slurm 22.05 or later client commands",
          e);
    }
  }

  private Map<String, List<String>> squeue(String purpose, List<String> filter)
      throws SchedulerException {
    List<String> arguments = new ArrayList<>(SqueueJobs.ARGUMENTS);
    arguments.addAll(filter);
    SlurmOutput out = command.run("squeue", purpose, arguments);
    if (out.exitCode() != 0) {
      throw new SchedulerException(
          name() + ": squeue could not " + purpose + ": " + out.said() + "; " + advice(out));
    }
    try {
      return SqueueJobs.parse(out.stdout());
    } catch (SlurmOutputException e) {
      throw new SchedulerException(
          name()
              + ": asked to "
              + purpose
              + ", "
              + out.commandLine()
              + " answered with something that is not its job listing ("
              + e.getMessage()
              + "); check that no squeue wrapper or site default changes its output",
          e);
    }
  }

  private SchedulerException refused(String verb, String node, SlurmOutput out) {
    return new SchedulerException(
        name()
            + ": scontrol refused to "
            + verb
            + " "
            + node
            + ": "
            + out.said()
            + "; "
            + advice(out));
  }

  private String advice(SlurmOutput out) {
    if (out.says("Invalid node name")) {
      return "check that the machine's host name is its Slurm node name (sinfo -N lists them)";
    }
    if (out.says("Access/permission denied") || out.says("Invalid user id")) {
      return "run the appliance's Slurm commands as root or as the cluster's SlurmUser, or give"
          + " its user AdminLevel=Operator (sacctmgr modify user <user> set adminlevel=operator)";
    }
    if (out.says("Unable to contact slurm controller")
        || out.says("Socket timed out")
        || out.says("Connection refused")
        || out.says("Zero Bytes were transmitted")) {
      return unreachableAdvice();
    }
    if (out.says("configuration file") || out.says("s_p_parse_file")) {
      return "check that "
          + options.slurmConf().map(Path::toString).orElse("the appliance's slurm.conf")
          + " is the cluster's slurm.conf and readable by the appliance";
    }
    if (out.says("munge") || out.says("Munge") || out.says("authentication")) {
      return "check that munged runs on the appliance with the cluster's munge key (munge -n |"
          + " unmunge) and that the clocks agree";
    }
    if (out.says("Invalid node state specified")) {
      return "look at the node with scontrol show node and resume it by hand if Slurm allows";
    }
    return "run " + out.commandLine() + " on the appliance to see what Slurm says";
  }

  private String unreachableAdvice() {
    return "check that slurmctld is up (scontrol ping) and that the appliance reaches the"
        + " SlurmctldHost and SlurmctldPort of "
        + options.slurmConf().map(Path::toString).orElse("the cluster's slurm.conf");
  }

  private static boolean drainFlagged(SchedulerNode node) {
    return List.of(node.schedulerState().split("\\+")).contains("DRAIN");
  }

  private static boolean isNodeName(String node) {
    return node != null
        && !node.isEmpty()
        && node.length() <= NODE_NAME_LIMIT
        && !node.startsWith("-")
        && node.chars().noneMatch(c -> c <= ' ' || c == 0x7f || ",[]=\"'\\".indexOf(c) >= 0);
  }

  private void checkName(String node, String verb) throws SchedulerException {
    if (!isNodeName(node)) {
      throw new SchedulerException(
          name()
              + ": cannot "
              + verb
              + " \""
              + (node == null ? "" : SlurmText.oneLine(node))
              + "\": not one Slurm node name (1 to "
              + NODE_NAME_LIMIT
              + " characters without blanks, quotes, commas, brackets or \"=\", not starting"
              + " with \"-\": a list such as gpu[01-04] would act on several nodes); check the"
              + " machine's host name");
    }
  }
}
