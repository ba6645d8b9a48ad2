package io.bulwark.cli;

import io.bulwark.cli.ApiClient.Refused;
import io.bulwark.cli.ApiClient.Unreachable;
import io.bulwark.cli.CommandLine.Command;
import java.io.IOException;
import java.io.PrintStream;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.Map;

/**
 * Runs one {@code bulwark} command line and turns what happened into words for an operator and an
 * exit status: {@value #OK} done, {@value #REFUSED} the API refused, {@value #USAGE} the command
 * line is wrong, {@value #UNREACHABLE} the appliance cannot be reached or its certificate is not
 * trusted, {@value #UNAVAILABLE} the appliance does not offer what was asked.
 */
final class Cli {
  static final int OK = 0;
  static final int REFUSED = 1;
  static final int USAGE = 2;
  static final int UNREACHABLE = 3;
  static final int UNAVAILABLE = 4;

  private final PrintStream out;
  private final PrintStream err;
  private final Commands commands;

  /**
   * A runner that reads {@code BULWARK_URL} and {@code BULWARK_TOKEN} from {@code env}, prints
   * answers to {@code out} and problems to {@code err}, and counts durations from {@code clock}.
   */
  Cli(Map<String, String> env, PrintStream out, PrintStream err, Clock clock) {
    this.out = out;
    this.err = err;
    this.commands = new Commands(env, out, clock, "bulwark-cli/" + version());
  }

  /** Runs the command line; returns the exit status. */
  int run(String... args) {
    Command command = null;
    try {
      CommandLine line = CommandLine.parse(args, Commands::named);
      command = line.command();
      if (line.flag("--help")) {
        out.print(command == null ? usage() : help(command));
        return OK;
      }
      if (command == null) {
        err.print(usage());
        return USAGE;
      }
      return command.handler().run(commands, line);
    } catch (UsageException e) {
      err.println("bulwark: " + e.getMessage());
      err.println(
          "Run 'bulwark " + (command == null ? "" : command.name() + " ") + "--help' for usage.");
      return USAGE;
    } catch (Refused e) {
      err.println(Text.clean("bulwark: " + e.getMessage()));
      if (e.status() == 401) {
        err.println(
            "bulwark: the token is unknown, expired or revoked; check --token-file or "
                + Connection.TOKEN_VARIABLE
                + " (an admin can issue a new token)");
      } else if (e.status() == 403) {
        err.println(
            "bulwark: the token's role may not do this; use a token of a role that may (an admin"
                + " can issue one)");
      }
      return REFUSED;
    } catch (Unreachable e) {
      err.println(Text.clean("bulwark: " + e.getMessage()));
      return UNREACHABLE;
    } catch (Commands.NotAvailable e) {
      err.println("bulwark: " + e.getMessage());
      return UNAVAILABLE;
    } catch (GeneralSecurityException e) {
      // The FIPS module or the TLS context could not be brought up.
      err.println(Text.clean("bulwark: cannot set up FIPS TLS: " + e.getMessage()));
      return UNREACHABLE;
    } catch (IOException e) {
      // A local file (an export's target) could not be written.
      err.println(Text.clean("bulwark: " + e));
      return USAGE;
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** Returns the overview: the commands and the options every command takes. */
  static String usage() {
    StringBuilder text = new StringBuilder();
    text.append("Usage: bulwark COMMAND [OPTIONS]\n\n");
    text.append("A client of the Bulwark appliance's API.\n\nCommands:\n");
    for (Command c : Commands.ALL) {
      text.append(String.format("  %-13s %s%n", c.name(), c.summary()));
    }
    text.append('\n').append(GLOBAL_OPTIONS);
    text.append("\nRun 'bulwark COMMAND --help' for what a command takes.\n");
    return text.toString();
  }

  /** Returns the help of one command. */
  static String help(Command command) {
    StringBuilder usage = new StringBuilder("Usage:\n");
    for (String form : command.synopsis().split("\n")) {
      usage.append("  bulwark ").append(form).append(" [OPTIONS]\n");
    }
    return usage + "\n" + command.details() + "\n\n" + GLOBAL_OPTIONS;
  }

  private static final String GLOBAL_OPTIONS =
      "Options of every command:\n"
          + "  --url URL             the appliance, https://HOST:8443 (or BULWARK_URL)\n"
          + "  --token-file FILE     a file holding the API token (or BULWARK_TOKEN); never the\n"
          + "                        token itself on the command line\n"
          + "  --ca FILE             trust the appliance's certificate if this CA (PEM) issued it\n"
          + "                        for the host name of --url\n"
          + "  --fingerprint FP      trust only the certificate with this SHA-256 fingerprint\n"
          + "                        (AA:BB:…, as the appliance's console prints it)\n"
          + "  --json                print the API's JSON answer as it is\n"
          + "  --help                this help\n"
          + "\n"
          + "Exit status: 0 done, 1 the API refused, 2 usage error, 3 cannot connect or the\n"
          + "certificate is not trusted, 4 not available on this appliance.\n";

  private static String version() {
    String version = Cli.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
