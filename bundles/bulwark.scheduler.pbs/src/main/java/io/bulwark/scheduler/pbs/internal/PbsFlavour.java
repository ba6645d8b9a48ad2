package io.bulwark.scheduler.pbs.internal;

import java.util.List;
import java.util.Locale;

/**
 * The two pbsnodes dialects the connector speaks, with the arguments each takes for a listing, a
 * drain and a resume, and how each says that something went wrong.
 *
 * <p>OpenPBS / PBS Professional (Reference Guide, pbsnodes; OpenPBS {@code pbsnodes.8B}): {@code -o
 * -C <comment> <host>} marks a host offline with a comment, {@code -r -C "" <host>} clears offline
 * and unsets the comment (the server unsets a string attribute set to the empty string), {@code -a
 * -F json} lists every host and {@code -F json <host>} one host, exiting 0 even for a host it does
 * not know (the listing then holds {@code "Error":"Unknown node "}). A refused change prints {@code
 * Error marking node <host> - <reason>} and exits 1.
 *
 * <p>Torque (pbsnodes(8B); Torque Administrator Guide, "Changing node state"): {@code -o -N <note>
 * <node>} sets the note and marks the node offline, {@code -c -N "" <node>} clears the note and
 * offline ({@code -r} would add DOWN as it clears offline), {@code -x [node]} lists as XML and
 * exits 1 for a node it does not know. A refused change prints {@code Error marking node <node> -
 * <reason>} (or {@code Error setting note attribute for …}) but exits 0, so standard error is read
 * as well as the exit status.
 */
enum PbsFlavour {
  OPENPBS("openpbs", "OpenPBS", "comment", "-F json", 0) {
    @Override
    List<String> listAll() {
      return List.of("-a", "-F", "json");
    }

    @Override
    List<String> listOne(String node) {
      return List.of("-F", "json", node);
    }

    @Override
    List<String> offline(String node, String comment) {
      return List.of("-o", "-C", comment, node);
    }

    @Override
    List<String> online(String node) {
      return List.of("-r", "-C", "", node);
    }

    @Override
    PbsListing read(String stdout) throws PbsOutputException {
      return OpenPbsNodesJson.parse(stdout);
    }
  },

  TORQUE("torque", "Torque", "note", "-x", 2) {
    @Override
    List<String> listAll() {
      return List.of("-x");
    }

    @Override
    List<String> listOne(String node) {
      return List.of("-x", node);
    }

    @Override
    List<String> offline(String node, String note) {
      return List.of("-o", "-N", note, node);
    }

    @Override
    List<String> online(String node) {
      return List.of("-c", "-N", "", node);
    }

    @Override
    PbsListing read(String stdout) throws PbsOutputException {
      return TorqueNodesXml.parse(stdout);
    }
  };

  private final String configName;
  private final String label;
  private final String reasonWord;
  private final String listingFormat;
  private final int noNodesExit;

  PbsFlavour(
      String configName, String label, String reasonWord, String listingFormat, int noNodesExit) {
    this.configName = configName;
    this.label = label;
    this.reasonWord = reasonWord;
    this.listingFormat = listingFormat;
    this.noNodesExit = noNodesExit;
  }

  /** Arguments that list every node. */
  abstract List<String> listAll();

  /** Arguments that list one node. */
  abstract List<String> listOne(String node);

  /** Arguments that mark a node offline with a comment or note. */
  abstract List<String> offline(String node, String reason);

  /** Arguments that clear offline and the comment or note. */
  abstract List<String> online(String node);

  /** Reads a listing printed on standard output. */
  abstract PbsListing read(String stdout) throws PbsOutputException;

  /** What the flavour is called in the configuration. */
  String configName() {
    return configName;
  }

  /** What the flavour is called in messages. */
  String label() {
    return label;
  }

  /** What pbsnodes calls the text recorded with a node: its comment or its note. */
  String reasonWord() {
    return reasonWord;
  }

  /** The listing option, for messages. */
  String listingFormat() {
    return listingFormat;
  }

  /**
   * Returns whether a listing of every node found none: pbsnodes then prints "No nodes found" on
   * standard error and exits 0 (OpenPBS) or 2 (Torque), or the server says it has no node list.
   */
  boolean noNodes(PbsnodesOutput out) {
    return (out.exitCode() == noNodesExit && out.stdout().isBlank() && out.says("No nodes found"))
        || (out.exitCode() != 0 && out.says("Server has no node list"));
  }

  /**
   * Returns whether a change was refused: a non-zero exit status, or (Torque exits 0 either way) a
   * line on standard error that starts with "Error".
   */
  boolean refused(PbsnodesOutput out) {
    return out.exitCode() != 0 || out.stderr().lines().anyMatch(line -> line.startsWith("Error"));
  }

  /**
   * Returns the flavour configured as {@code value}, in any case.
   *
   * @throws IllegalArgumentException naming the values allowed
   */
  static PbsFlavour of(String value) {
    String wanted = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (PbsFlavour flavour : values()) {
      if (flavour.configName.equals(wanted)) {
        return flavour;
      }
    }
    throw new IllegalArgumentException(
        "flavour \"" + value + "\" is not a PBS this connector knows; set it to openpbs or torque");
  }
}
