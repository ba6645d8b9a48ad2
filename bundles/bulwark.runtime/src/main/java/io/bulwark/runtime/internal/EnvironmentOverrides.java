package io.bulwark.runtime.internal;

import java.lang.System.Logger.Level;
import java.util.Dictionary;
import java.util.Map;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.ConfigurationPlugin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * Applies the installer's BULWARK_* environment variables on top of the shipped configuration, as a
 * Config Admin plugin: what the environment says wins over the role's Configurator JSON, and
 * nothing is written back, so unsetting a variable restores the shipped value. A bad value stops
 * start-up with a message naming the variable.
 */
@Component(immediate = true, property = ConfigurationPlugin.CM_RANKING + ":Integer=100")
public final class EnvironmentOverrides implements ConfigurationPlugin {
  private static final System.Logger LOG = System.getLogger(EnvironmentOverrides.class.getName());

  /** Exit status for a configuration error (sysexits EX_CONFIG). */
  static final int EXIT_CONFIG = 78;

  private final EnvironmentSettings settings;

  @Activate
  public EnvironmentOverrides() {
    this(System.getenv(), true);
  }

  EnvironmentOverrides(Map<String, String> env, boolean exitOnError) {
    EnvironmentSettings parsed;
    try {
      parsed = EnvironmentSettings.from(env);
    } catch (InvalidSettingException e) {
      String message = "Bulwark cannot start: " + e.getMessage();
      System.err.println(message);
      LOG.log(Level.ERROR, message);
      if (exitOnError) {
        // Exit from another thread: System.exit runs the shutdown hook, which stops the framework
        // that is
        // activating this component right now.
        new Thread(() -> System.exit(EXIT_CONFIG), "bulwark-config-error").start();
      }
      throw e;
    }
    this.settings = parsed;
    settings
        .all()
        .forEach(
            (pid, props) -> LOG.log(Level.INFO, "Environment sets {0} {1}", pid, props.keySet()));
  }

  @Override
  public void modifyConfiguration(
      ServiceReference<?> reference, Dictionary<String, Object> properties) {
    Object pid = properties.get(Constants.SERVICE_PID);
    if (pid != null) {
      settings.overridesFor(pid.toString()).forEach(properties::put);
    }
  }
}
