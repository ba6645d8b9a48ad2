package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Collections;
import java.util.Dictionary;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationEvent;
import org.osgi.service.cm.ConfigurationListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Records the settings in effect at start, and every later change of a setting made through
 * Configuration Admin, in the audit log: which configuration (PID), which properties changed, from
 * what to what. Values of properties whose names speak of passwords, secrets, tokens or keys are
 * never written, only that they changed. Configuration Admin reports changes after the fact, so a
 * change that cannot be recorded is logged at ERROR, loudly, rather than undone.
 */
@Component(service = ConfigurationListener.class, immediate = true)
public final class SettingChanges implements ConfigurationListener {
  static final String CHANGED = "setting.changed";
  static final String DELETED = "setting.deleted";
  static final String IN_EFFECT = "settings.in-effect";
  static final String REDACTED = "[redacted]";
  private static final int LONGEST_VALUE = 256;
  private static final System.Logger LOG = System.getLogger(SettingChanges.class.getName());
  private static final Set<String> SECRET_WORDS =
      Set.of("password", "secret", "token", "pepper", "key", "credential");

  private final AuditLog audit;
  private final ConfigurationAdmin admin;
  private final ServiceReference<?> reference;
  private final Map<String, Map<String, String>> known = new ConcurrentHashMap<>();

  @Activate
  public SettingChanges(
      @Reference AuditLog audit,
      @Reference ConfigurationAdmin admin,
      @Reference(service = ConfigurationAdmin.class, name = "adminReference")
          ServiceReference<ConfigurationAdmin> adminReference) {
    this.audit = audit;
    this.admin = admin;
    this.reference = adminReference;
    try {
      Configuration[] all = admin.listConfigurations(null);
      for (Configuration c : all == null ? new Configuration[0] : all) {
        known.put(c.getPid(), readable(inEffect(c)));
      }
    } catch (IOException | InvalidSyntaxException e) {
      LOG.log(Level.WARNING, "Cannot read the current settings to compare changes with: {0}", e);
    }
    Map<String, String> inEffect = new TreeMap<>();
    known.forEach(
        (pid, values) -> values.forEach((k, v) -> inEffect.put(pid + "." + k, display(v))));
    record(IN_EFFECT, "appliance", inEffect);
  }

  @Override
  public void configurationEvent(ConfigurationEvent event) {
    String pid = event.getPid();
    Map<String, String> before = known.getOrDefault(pid, Map.of());
    if (event.getType() == ConfigurationEvent.CM_DELETED) {
      known.remove(pid);
      Map<String, String> was = new TreeMap<>();
      before.forEach((k, v) -> was.put("was." + k, display(v)));
      record(DELETED, pid, was);
      return;
    }
    if (event.getType() != ConfigurationEvent.CM_UPDATED) {
      return;
    }
    Map<String, String> after = current(pid);
    if (after == null) {
      return;
    }
    known.put(pid, after);
    Map<String, String> details = difference(before, after);
    if (!details.isEmpty()) {
      record(CHANGED, pid, details);
    }
  }

  /** Returns, per changed property, "old -> new" (values of secret-like names redacted). */
  static Map<String, String> difference(Map<String, String> before, Map<String, String> after) {
    Map<String, String> details = new TreeMap<>();
    Set<String> names = new TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    for (String name : names) {
      String was = before.get(name);
      String now = after.get(name);
      if (!Objects.equals(was, now)) {
        details.put(name, display(was) + " -> " + display(now));
      }
    }
    return details;
  }

  private static String display(String value) {
    if (value == null) {
      return "(unset)";
    }
    return value.startsWith(REDACTED + "#") ? REDACTED : value;
  }

  /**
   * Returns the properties as text, without the framework's own; a secret-like value becomes
   * {@value #REDACTED} and its digest, kept in memory only to see that it changed.
   */
  static Map<String, String> readable(Dictionary<String, Object> properties) {
    Map<String, String> text = new TreeMap<>();
    if (properties == null) {
      return text;
    }
    for (String name : Collections.list(properties.keys())) {
      if (name.startsWith("service.") || name.startsWith(":") || name.startsWith("felix.")) {
        continue;
      }
      Object value = properties.get(name);
      text.put(name, secretLike(name) ? REDACTED + "#" + fingerprint(value) : shown(value));
    }
    return text;
  }

  static boolean secretLike(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return SECRET_WORDS.stream().anyMatch(lower::contains);
  }

  private Map<String, String> current(String pid) {
    try {
      Configuration[] found = admin.listConfigurations("(service.pid=" + escaped(pid) + ")");
      return found == null || found.length == 0 ? null : readable(inEffect(found[0]));
    } catch (IOException | InvalidSyntaxException e) {
      LOG.log(
          Level.ERROR, "Setting {0} changed but cannot be read to audit the change: {1}", pid, e);
      return null;
    }
  }

  /**
   * Returns a configuration's properties as its component receives them: after the configuration
   * plugins, so that environment overrides ({@code BULWARK_*}) are recorded as the values in
   * effect, not the shipped ones they replace.
   */
  private Dictionary<String, Object> inEffect(Configuration c) {
    Dictionary<String, Object> processed = c.getProcessedProperties(reference);
    return processed != null ? processed : c.getProperties();
  }

  private void record(String action, String pid, Map<String, String> details) {
    Map<String, String> all = new TreeMap<>(details);
    all.put("via", "configuration-admin");
    try {
      audit.append(new AuditEvent("system", "local", action, pid, AuditOutcome.SUCCESS, all));
    } catch (AuditUnavailableException | IllegalArgumentException e) {
      LOG.log(
          Level.ERROR,
          "The setting {0} changed but the audit log could not record it: {1}. Repair the audit"
              + " log and review the settings of {0}.",
          pid,
          e.getMessage());
    }
  }

  private static String shown(Object value) {
    String text =
        value instanceof Object[] array
            ? Arrays.deepToString(array)
            : value != null && value.getClass().isArray()
                ? primitiveArray(value)
                : String.valueOf(value);
    return text.length() > LONGEST_VALUE ? text.substring(0, LONGEST_VALUE) + "..." : text;
  }

  private static String primitiveArray(Object array) {
    StringBuilder b = new StringBuilder("[");
    int n = java.lang.reflect.Array.getLength(array);
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ", ").append(java.lang.reflect.Array.get(array, i));
    }
    return b.append(']').toString();
  }

  private static String fingerprint(Object value) {
    byte[] digest =
        FipsCrypto.sha256().digest(shown(value).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return java.util.HexFormat.of().formatHex(digest);
  }

  private static String escaped(String pid) {
    return pid.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").replace("*", "\\*");
  }
}
