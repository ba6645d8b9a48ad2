package io.bulwark.scheduler.pbs.internal;

import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The scheduler connector for OpenPBS / PBS Professional and Torque, registered once its
 * configuration (PID {@code io.bulwark.scheduler.pbs}, or one factory configuration of that PID per
 * further PBS server) exists. Every call runs the server's own pbsnodes on the appliance, which
 * must be a PBS client whose user is a PBS manager or operator: a drain marks the host offline with
 * a comment (OpenPBS) or note (Torque) that names the finding, a resume clears offline and that
 * text, and the nodes, their queues or properties and their jobs are read from pbsnodes' JSON
 * (OpenPBS) or XML (Torque) listing. Nothing is cached and every call is bounded by the timeout;
 * calls may run on any thread, several at once.
 */
@Component(
    service = SchedulerConnector.class,
    configurationPid = "io.bulwark.scheduler.pbs",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = PbsConfig.class)
public final class PbsConnector implements SchedulerConnector {
  private static final Logger LOG = System.getLogger(PbsConnector.class.getName());
  private static final int NODE_NAME_LIMIT = 255;

  private final PbsOptions options;
  private final PbsnodesCommand pbsnodes;

  @Activate
  public PbsConnector(PbsConfig config) {
    this(PbsOptions.of(config));
  }

  /** A connector with these settings. */
  PbsConnector(PbsOptions options) {
    this.options = options;
    this.pbsnodes = new PbsnodesCommand(options);
  }

  @Override
  public String name() {
    return options.name();
  }

  @Override
  public List<SchedulerNode> nodes() throws SchedulerException {
    PbsFlavour flavour = options.flavour();
    String purpose = "list its nodes";
    PbsnodesOutput out = pbsnodes.run(purpose, flavour.listAll());
    if (flavour.noNodes(out)) {
      return List.of();
    }
    if (out.exitCode() != 0) {
      throw new SchedulerException(
          name() + ": pbsnodes could not " + purpose + ": " + out.said() + "; " + advice(out));
    }
    return List.copyOf(read(out, purpose).nodes().values());
  }

  @Override
  public Optional<SchedulerNode> node(String name) throws SchedulerException {
    checkName(name, "show");
    String purpose = "show node " + name;
    PbsnodesOutput out = pbsnodes.run(purpose, options.flavour().listOne(name));
    if (out.exitCode() != 0) {
      if (out.says("Unknown node")) {
        return Optional.empty();
      }
      throw new SchedulerException(
          name() + ": pbsnodes could not " + purpose + ": " + out.said() + "; " + advice(out));
    }
    PbsListing listing = read(out, purpose);
    String error = listing.errors().get(name);
    if (error != null) {
      if (error.startsWith("Unknown node")) {
        return Optional.empty();
      }
      throw new SchedulerException(
          name() + ": pbsnodes could not " + purpose + ": " + error.trim() + "; " + advice(out));
    }
    SchedulerNode node = listing.nodes().get(name);
    if (node == null && listing.nodes().size() == 1) {
      node = listing.nodes().values().iterator().next();
    }
    if (node == null) {
      throw new SchedulerException(
          name()
              + ": "
              + out.commandLine()
              + " answered without node "
              + name
              + "; check that flavour ("
              + options.flavour().configName()
              + ") matches the PBS installed on the appliance");
    }
    return Optional.of(node);
  }

  @Override
  public void drain(String node, String reason) throws SchedulerException {
    checkName(node, "drain");
    String text = PbsComment.forDrain(reason);
    PbsnodesOutput out = pbsnodes.run("drain " + node, options.flavour().offline(node, text));
    if (options.flavour().refused(out)) {
      throw refused("drain", node, out);
    }
    LOG.log(
        Level.INFO,
        "{0}: marked {1} offline in PBS with {2} \"{3}\"",
        name(),
        node,
        options.flavour().reasonWord(),
        text);
  }

  @Override
  public void resume(String node, String reason) throws SchedulerException {
    checkName(node, "resume");
    PbsnodesOutput out = pbsnodes.run("resume " + node, options.flavour().online(node));
    if (options.flavour().refused(out)) {
      throw refused("resume", node, out);
    }
    LOG.log(
        Level.INFO,
        "{0}: cleared offline and the {1} of {2} in PBS ({3})",
        name(),
        options.flavour().reasonWord(),
        node,
        PbsComment.oneLine(reason == null ? "" : reason));
  }

  private PbsListing read(PbsnodesOutput out, String purpose) throws SchedulerException {
    try {
      return options.flavour().read(out.stdout());
    } catch (PbsOutputException e) {
      throw new SchedulerException(
          name()
              + ": asked to "
              + purpose
              + ", "
              + out.commandLine()
              + " answered with something that is not a "
              + options.flavour().label()
              + " pbsnodes "
              + options.flavour().listingFormat()
              + " listing ("
              + e.getMessage()
              + "); check that flavour ("
              + options.flavour().configName()
              + ") matches the PBS installed on the appliance",
          e);
    }
  }

  private SchedulerException refused(String verb, String node, PbsnodesOutput out) {
    return new SchedulerException(
        name()
            + ": pbsnodes refused to "
            + verb
            + " "
            + node
            + ": "
            + out.said()
            + "; "
            + advice(out));
  }

  private String advice(PbsnodesOutput out) {
    if (out.says("Unknown node")) {
      return "check that the machine's host name is its PBS node name (pbsnodes -l and pbsnodes -a"
          + " list them)";
    }
    if (out.says("Unauthorized Request")) {
      return "make the appliance's user a PBS manager or operator (qmgr -c \"set server operators"
          + " += <user>@<appliance host>\")";
    }
    if (out.says("cannot connect to server")) {
      return "check that the PBS server "
          + options.server().orElse("named in the appliance's PBS client configuration")
          + " is up and reachable from the appliance";
    }
    if (out.says("usage:")) {
      return "this pbsnodes does not take "
          + options.flavour().label()
          + "'s options; check that flavour ("
          + options.flavour().configName()
          + ") matches the PBS installed on the appliance";
    }
    return "run " + out.commandLine() + " on the appliance to see what PBS says";
  }

  private void checkName(String node, String verb) throws SchedulerException {
    boolean valid =
        node != null
            && !node.isEmpty()
            && node.length() <= NODE_NAME_LIMIT
            && !node.startsWith("-")
            && node.chars().noneMatch(c -> c <= ' ' || c == 0x7f || c == ',');
    if (!valid) {
      throw new SchedulerException(
          name()
              + ": cannot "
              + verb
              + " \""
              + (node == null ? "" : PbsComment.oneLine(node))
              + "\": not a PBS node name (it must be 1 to "
              + NODE_NAME_LIMIT
              + " characters without blanks or commas, not starting with \"-\"); check the"
              + " machine's host name");
    }
  }
}
