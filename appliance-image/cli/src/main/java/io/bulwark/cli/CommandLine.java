package io.bulwark.cli;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A command line taken apart: the command, its operands, and the options, global or the command's,
 * as {@code --name value}, {@code --name=value} or a flag. Options may come before or after the
 * command; {@code --} ends them (for a comment that starts with '-').
 */
final class CommandLine {
  /** The options every command takes that carry a value. */
  static final Set<String> GLOBAL_VALUES = Set.of("--url", "--token-file", "--ca", "--fingerprint");

  /** The flags every command takes. */
  static final Set<String> GLOBAL_FLAGS = Set.of("--json", "--help", "-h");

  private final Command command;
  private final List<String> operands;
  private final Map<String, String> values;
  private final Set<String> flags;

  private CommandLine(
      Command command, List<String> operands, Map<String, String> values, Set<String> flags) {
    this.command = command;
    this.operands = List.copyOf(operands);
    this.values = values;
    this.flags = flags;
  }

  /**
   * Takes {@code args} apart.
   *
   * @param commands finds a command by name, or null
   * @throws UsageException for an unknown command or option, or an option without its value
   */
  static CommandLine parse(String[] args, Function<String, Command> commands)
      throws UsageException {
    Command command = null;
    List<String> operands = new ArrayList<>();
    Map<String, String> values = new LinkedHashMap<>();
    Set<String> flags = new HashSet<>();
    boolean options = true;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (options && arg.equals("--")) {
        options = false;
        continue;
      }
      if (options && arg.startsWith("-") && arg.length() > 1) {
        String name = arg;
        String inline = null;
        int equals = arg.indexOf('=');
        if (arg.startsWith("--") && equals > 0) {
          name = arg.substring(0, equals);
          inline = arg.substring(equals + 1);
        }
        if (name.equals("--token")) {
          throw new UsageException(
              "--token is not accepted: a token on the command line shows in the process list;"
                  + " give --token-file FILE or set BULWARK_TOKEN");
        }
        if (GLOBAL_VALUES.contains(name) || (command != null && command.values().contains(name))) {
          String value = inline;
          if (value == null) {
            if (i + 1 >= args.length) {
              throw new UsageException(name + " needs a value");
            }
            value = args[++i];
          }
          if (values.putIfAbsent(name, value) != null) {
            throw new UsageException(name + " is given twice");
          }
        } else if (GLOBAL_FLAGS.contains(name)
            || (command != null && command.flags().contains(name))) {
          if (inline != null) {
            throw new UsageException(name + " takes no value");
          }
          flags.add(name.equals("-h") ? "--help" : name);
        } else {
          throw new UsageException(
              "unknown option "
                  + Text.clean(name)
                  + (command == null ? "" : " for '" + command.name() + "'"));
        }
      } else if (command == null) {
        command = commands.apply(arg);
        if (command == null) {
          throw new UsageException("unknown command '" + Text.clean(arg) + "'");
        }
      } else {
        operands.add(arg);
      }
    }
    return new CommandLine(command, operands, values, flags);
  }

  /** Returns the command, or null if none was given. */
  Command command() {
    return command;
  }

  /** Returns the operands after the command, in order. */
  List<String> operands() {
    return operands;
  }

  /** Returns the value of an option, if it was given. */
  Optional<String> value(String option) {
    return Optional.ofNullable(values.get(option));
  }

  /** Returns true if the flag was given. */
  boolean flag(String flag) {
    return flags.contains(flag);
  }

  /**
   * Returns the operands, checking there are between {@code min} and {@code max}.
   *
   * @param names what they are, for the message (e.g. "a finding id")
   */
  List<String> operands(int min, int max, String names) throws UsageException {
    if (operands.size() < min) {
      throw new UsageException("'" + command.name() + "' needs " + names);
    }
    if (operands.size() > max) {
      throw new UsageException(
          "'"
              + command.name()
              + "' takes "
              + names
              + ", not also '"
              + Text.clean(operands.get(max))
              + "'");
    }
    return operands;
  }

  /** A command: its name, how it is written, what it does, its options and its work. */
  record Command(
      String name,
      String synopsis,
      String summary,
      String details,
      Set<String> values,
      Set<String> flags,
      Handler handler) {}

  /** The work of a command; returns the exit status. */
  @FunctionalInterface
  interface Handler {
    int run(Commands commands, CommandLine line)
        throws UsageException,
            ApiClient.Refused,
            ApiClient.Unreachable,
            IOException,
            GeneralSecurityException;
  }
}
