package io.bulwark.testing.slurm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The {@code slurm.conf} a {@link SlurmCluster} runs with, as text: everything on 127.0.0.1, the
 * daemons and jobs under the current user, no accounting, no cgroups, and one {@code NodeName} line
 * with its own port per node.
 */
final class SlurmConfText {
  /** Slurm's cluster name in the fixture's configuration. */
  static final String CLUSTER_NAME = "bulwarktest";

  private SlurmConfText() {}

  /**
   * Renders the configuration.
   *
   * @param dir the cluster's folder (state, plug-in stack file)
   * @param spool the folder of the nodes' spool folders: short, since slurmstepd's socket names in
   *     it must stay under the 108 bytes of a Unix socket path
   * @param mungeSocket munged's socket
   * @param user the user the daemons run as
   * @param controllerPort slurmctld's port
   * @param defaultNodePort {@code SlurmdPort}, which no node uses: each has a {@code Port=} of its
   *     own, so that {@code scontrol show node} shows every node's port
   * @param nodePorts each node's slurmd port, in node order
   * @param partitions partition name to its nodes; the first is the default partition
   * @param cpus CPUs each node offers
   * @param slurmdTimeout after how long without an answer slurmctld marks a node down
   * @param mailProg an executable that accepts and ignores Slurm's mail
   */
  static String render(
      Path dir,
      Path spool,
      Path mungeSocket,
      String user,
      int controllerPort,
      int defaultNodePort,
      Map<String, Integer> nodePorts,
      Map<String, List<String>> partitions,
      int cpus,
      Duration slurmdTimeout,
      Path mailProg) {
    String d = dir.toAbsolutePath().normalize().toString();
    StringBuilder conf = new StringBuilder();
    conf.append("# Written by io.bulwark.testing.slurm.SlurmCluster for a test.\n")
        .append("ClusterName=")
        .append(CLUSTER_NAME)
        .append('\n')
        .append("SlurmctldHost=localhost(127.0.0.1)\n")
        .append("SlurmctldPort=")
        .append(controllerPort)
        .append('\n')
        .append("SlurmdPort=")
        .append(defaultNodePort)
        .append('\n')
        .append("CommunicationParameters=NoInAddrAny,NoCtldInAddrAny\n")
        .append("SlurmUser=")
        .append(user)
        .append('\n')
        .append("SlurmdUser=")
        .append(user)
        .append('\n')
        .append("AuthType=auth/munge\n")
        .append("CredType=cred/munge\n")
        .append("AuthInfo=socket=")
        .append(mungeSocket.toAbsolutePath())
        .append('\n')
        .append("StateSaveLocation=")
        .append(d)
        .append("/state\n")
        .append("SlurmdSpoolDir=")
        .append(spool.toAbsolutePath().normalize())
        .append("/%n\n")
        .append("SlurmctldPidFile=")
        .append(d)
        .append("/state/slurmctld.pid\n")
        .append("SlurmdPidFile=")
        .append(spool.toAbsolutePath().normalize())
        .append("/slurmd-%n.pid\n")
        .append("PlugStackConfig=")
        .append(d)
        .append("/plugstack.conf\n")
        .append("MailProg=")
        .append(mailProg.toAbsolutePath())
        .append('\n')
        .append("ProctrackType=proctrack/linuxproc\n")
        .append("TaskPlugin=task/none\n")
        .append("JobAcctGatherType=jobacct_gather/none\n")
        .append("AccountingStorageType=accounting_storage/none\n")
        .append("JobCompType=jobcomp/none\n")
        .append("MpiDefault=none\n")
        .append("SelectType=select/cons_tres\n")
        .append("SelectTypeParameters=CR_Core\n")
        .append("SchedulerParameters=batch_sched_delay=0\n")
        .append("SlurmdParameters=config_overrides\n")
        .append("ReturnToService=2\n")
        .append("SlurmdTimeout=")
        .append(Math.max(1, slurmdTimeout.toSeconds()))
        .append('\n')
        .append("KillWait=2\n")
        .append("SlurmctldDebug=info\n")
        .append("SlurmdDebug=info\n")
        .append("LogTimeFormat=iso8601_ms\n")
        .append("SlurmctldLogFile=")
        .append(d)
        .append("/log/slurmctld.log\n")
        .append("SlurmdLogFile=")
        .append(d)
        .append("/log/slurmd-%n.log\n");
    for (Map.Entry<String, Integer> node : nodePorts.entrySet()) {
      conf.append("NodeName=")
          .append(node.getKey())
          .append(" NodeHostname=localhost NodeAddr=127.0.0.1 Port=")
          .append(node.getValue())
          .append(" CPUs=")
          .append(cpus)
          .append(" RealMemory=1000 State=UNKNOWN\n");
    }
    boolean first = true;
    for (Map.Entry<String, List<String>> partition : partitions.entrySet()) {
      conf.append("PartitionName=")
          .append(partition.getKey())
          .append(" Nodes=")
          .append(String.join(",", partition.getValue()))
          .append(first ? " Default=YES" : "")
          .append(" MaxTime=INFINITE State=UP\n");
      first = false;
    }
    return conf.toString();
  }
}
