package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A first start without an installer's password: the generated one is shown once on the console,
 * after "Bulwark started" (so that it does not scroll away among the start-up messages), never in
 * the log lines before it, and logs in with a forced change.
 */
class FirstStartIT {
  private static final Pattern PASSWORD =
      Pattern.compile("'admin' with the password\\s+(\\S+)\\s+It is shown this once");

  @Test
  void theGeneratedPasswordIsShownOnceAfterStartedAndLogsIn() throws Exception {
    try (RunningAppliance bulwark =
        RunningAppliance.demo(
            RunningAppliance.workDir("first-start"),
            Map.of("BULWARK_ADMIN_PASSWORD", "", "BULWARK_SIM_SCENARIO", "none"))) {
      // (Not awaitUp: it logs in with the installer's password, which this start has not.)
      String console = "";
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (System.nanoTime() < deadline && !PASSWORD.matcher(console).find()) {
        Thread.sleep(250);
        console = bulwark.console();
      }
      Matcher m = PASSWORD.matcher(console);
      assertThat(m.find()).as("the generated password on the console:%n%s", console).isTrue();
      String password = m.group(1);
      assertThat(console.indexOf("Bulwark started"))
          .as("shown after the start-up messages")
          .isBetween(0, m.start());
      assertThat(console.indexOf(password)).as("shown once").isEqualTo(m.start(1));
      assertThat(console.lastIndexOf(password)).isEqualTo(m.start(1));

      HttpClient http = PinnedCertificate.client(bulwark.log);
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(bulwark.baseUrl() + "/api/v1/session"))
              .timeout(Duration.ofSeconds(10))
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      new JsonObject().put("user", "admin").put("password", password).encode()))
              .build();
      HttpResponse<String> login = null;
      for (int attempt = 0; login == null; attempt++) {
        try {
          login = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.net.ConnectException notYet) {
          // the listener may bind a moment after the start-up check saw its service
          if (attempt > 60) {
            throw notYet;
          }
          Thread.sleep(500);
        }
      }
      assertThat(login.statusCode()).as(login.body()).isEqualTo(201);
      assertThat(new JsonObject(login.body()).getBoolean("mustChangePassword")).isTrue();
    }
  }
}
