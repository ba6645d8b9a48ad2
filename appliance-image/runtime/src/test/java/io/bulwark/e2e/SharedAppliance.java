package io.bulwark.e2e;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * One started demo appliance, and one headless Chromium, for every end-to-end test class of a test
 * JVM that only reads or cleans up after itself: started by the first class that asks, stopped when
 * the JVM's tests end. A class joins with {@code @ExtendWith(SharedAppliance.class)} and takes a
 * {@link RunningAppliance} (logged in as the installer's admin) or a {@link ChromeDriver} as a
 * parameter of a test or {@code @BeforeAll} method.
 *
 * <p>The shared appliance serves {@value #NODES} simulated nodes with no scripted faults (scenario
 * {@code none}), remediation in its default dry-run: a class injects the faults it looks for on
 * nodes of its own (see {@link #node(int)}), takes counts as deltas from what it reads first, and
 * names the users, tokens and channels it creates uniquely. Tests that change global state
 * (lockout, connection caps, restarts, kill -9, updates, TLS settings, remediation mode) start
 * their own.
 */
final class SharedAppliance implements ParameterResolver {
  /** The shared fleet's size. */
  static final int NODES = 40;

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedAppliance.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RunningAppliance.class || type == ChromeDriver.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RunningAppliance.class ? appliance(context) : browser(context);
  }

  /** The JVM's shared appliance, started (and its admin logged in) on first use. */
  static RunningAppliance appliance(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent("appliance", k -> new Appliance(), Appliance.class)
        .bulwark;
  }

  /**
   * The JVM's shared headless Chromium, started on first use, handed out with no cookies and on a
   * blank page: cookies ignore the port, so a session of another appliance on this host would
   * otherwise ride along.
   */
  static ChromeDriver browser(ExtensionContext context) {
    ChromeDriver driver =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent("browser", k -> new Browser(), Browser.class)
            .driver;
    driver.get("about:blank");
    driver.executeCdpCommand("Network.clearBrowserCookies", Map.of());
    return driver;
  }

  /** Makes {@code browser} save what it downloads into {@code folder}, without asking. */
  static void downloadsTo(ChromeDriver browser, java.nio.file.Path folder) {
    browser.executeCdpCommand(
        "Browser.setDownloadBehavior",
        Map.of("behavior", "allow", "downloadPath", folder.toAbsolutePath().toString()));
  }

  /** The simulated node {@code n} of the shared fleet ({@code gpu-node-007} for 7). */
  static String node(int n) {
    if (n < 1 || n > NODES) {
      throw new IllegalArgumentException("the shared fleet has nodes 1 to " + NODES + ": " + n);
    }
    return String.format("gpu-node-%03d", n);
  }

  /** The started appliance, closed with the root context at the end of the JVM's tests. */
  private static final class Appliance implements ExtensionContext.Store.CloseableResource {
    final RunningAppliance bulwark;

    Appliance() {
      RunningAppliance started = null;
      try {
        started =
            RunningAppliance.demo(
                RunningAppliance.workDir("shared-" + ProcessHandle.current().pid()),
                Map.of(
                    "BULWARK_SIM_NODES", Integer.toString(NODES), "BULWARK_SIM_SCENARIO", "none"));
        started.awaitUp(Duration.ofSeconds(90));
        bulwark = started;
      } catch (Exception | AssertionError e) {
        if (started != null) {
          try {
            started.close();
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
          }
        }
        throw new ParameterResolutionException("the shared appliance did not start: " + e, e);
      }
    }

    @Override
    public void close() throws Exception {
      bulwark.close();
    }
  }

  /** The started browser, quit with the root context at the end of the JVM's tests. */
  private static final class Browser implements ExtensionContext.Store.CloseableResource {
    final ChromeDriver driver = FleetPageBrowserIT.headlessChromium();

    @Override
    public void close() {
      driver.quit();
    }
  }
}
