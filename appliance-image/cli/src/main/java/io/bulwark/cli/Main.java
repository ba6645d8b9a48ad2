package io.bulwark.cli;

import java.time.Clock;

/**
 * The {@code bulwark} command: a client of the appliance's JSON API with an API token. Run {@code
 * bulwark --help} for the commands. Exits 0 when the command did what it was asked, 1 when the API
 * refused, 2 on a usage error, 3 when the appliance cannot be reached or its certificate is not
 * trusted, 4 when the appliance does not offer what was asked.
 */
public final class Main {
  private Main() {}

  /**
   * Runs one command and exits with its status.
   *
   * @param args the command line, e.g. {@code findings --state open}
   */
  public static void main(String[] args) {
    // Before any BouncyCastle class loads: the FIPS module reads it once, when it starts.
    System.setProperty(FipsProviders.APPROVED_ONLY_PROPERTY, "true");
    int status = new Cli(System.getenv(), System.out, System.err, Clock.systemUTC()).run(args);
    System.out.flush();
    System.exit(status);
  }
}
