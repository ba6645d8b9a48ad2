package io.bulwark.runtime.internal;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings an installer gives through environment variables, checked and mapped onto the
 * configuration of the components they belong to. A bad value is refused with a message that names
 * the variable and says what is expected; nothing is half-applied.
 *
 * <table>
 *   <caption>Variables</caption>
 *   <tr><td>BULWARK_DATA_DIR</td><td>io.bulwark.store dataDir; the demo targets file, secrets, TLS keystore, audit log and telemetry roll-ups live in it; io.bulwark.runtime.files keeps it private</td></tr>
 *   <tr><td>BULWARK_HTTP_PORT</td><td>refused: the admin plane listens on HTTPS only</td></tr>
 *   <tr><td>BULWARK_DEVELOPMENT_MODE</td><td>io.bulwark.security.secrets developmentMode</td></tr>
 *   <tr><td>BULWARK_TPM_TCTI</td><td>io.bulwark.security.tpm tcti</td></tr>
 *   <tr><td>BULWARK_HTTPS_PORT</td><td>io.bulwark.web httpsPort</td></tr>
 *   <tr><td>BULWARK_BIND_ADDRESS</td><td>io.bulwark.web bindAddress</td></tr>
 *   <tr><td>BULWARK_FILE_SD</td><td>io.bulwark.telemetry fileSd; turns the simulator off</td></tr>
 *   <tr><td>BULWARK_SIM_PORT</td><td>io.bulwark.sim port</td></tr>
 *   <tr><td>BULWARK_SIM_NODES</td><td>io.bulwark.sim nodes: how many nodes the demo simulates</td></tr>
 *   <tr><td>BULWARK_SIM_SCENARIO</td><td>io.bulwark.sim scenario: demo or none</td></tr>
 *   <tr><td>BULWARK_SIM_BMCS</td><td>io.bulwark.sim bmcs: how many simulated nodes have a BMC (0: none)</td></tr>
 *   <tr><td>BULWARK_AGENT_BIND_ADDRESS</td><td>io.bulwark.agent bindAddress (node agent)</td></tr>
 *   <tr><td>BULWARK_AGENT_PORT</td><td>io.bulwark.agent port (node agent)</td></tr>
 *   <tr><td>BULWARK_AGENT_APPLIANCE_URL</td><td>io.bulwark.agent.actions applianceUrl: the appliance
 *       the node agent enrols with (turns the action channel on)</td></tr>
 *   <tr><td>BULWARK_AGENT_APPLIANCE_FINGERPRINT</td><td>io.bulwark.agent.actions applianceFingerprint:
 *       SHA-256 of the appliance's admin TLS certificate, pinned for the enrolment</td></tr>
 *   <tr><td>BULWARK_AGENT_ENROLMENT_TOKEN</td><td>io.bulwark.agent.actions enrolmentToken: the one-time
 *       token an admin issued for this node</td></tr>
 *   <tr><td>BULWARK_AGENT_ACTION_PORT</td><td>io.bulwark.agent.actions port</td></tr>
 *   <tr><td>BULWARK_AGENT_ADVERTISE_ADDRESS</td><td>io.bulwark.agent.actions advertiseAddress: the
 *       address the appliance dials</td></tr>
 *   <tr><td>BULWARK_AGENT_HOSTNAME</td><td>io.bulwark.agent hostname and io.bulwark.agent.actions
 *       hostname: the node's name</td></tr>
 *   <tr><td>BULWARK_AGENT_NVIDIA_SMI</td><td>io.bulwark.agent.actions nvidiaSmi</td></tr>
 *   <tr><td>BULWARK_AGENT_DCGMI</td><td>io.bulwark.agent.actions dcgmi</td></tr>
 *   <tr><td>BULWARK_REMEDIATION_MODE</td><td>io.bulwark.remediation initialMode: the mode of the default
 *       policies at first start (dry-run, approve-destructive or automatic)</td></tr>
 *   <tr><td>BULWARK_REMEDIATION_SOAK_SECONDS</td><td>io.bulwark.remediation soakSeconds</td></tr>
 *   <tr><td>BULWARK_SLURM_CONF</td><td>io.bulwark.scheduler.slurm slurmConf: the slurm.conf of the cluster
 *       whose nodes remediation drains and resumes (turns the Slurm connector on)</td></tr>
 *   <tr><td>BULWARK_DATA_DIR (also)</td><td>io.bulwark.provisioning imageFolder (pxe/boot/images in
 *       it) and keyFolders (keys/ of the working folder and keys/ in it)</td></tr>
 *   <tr><td>BULWARK_PXE_ADDRESS</td><td>io.bulwark.pxe address: the appliance's address on the
 *       provisioning network (turns the provisioning plane on; its boot and TFTP roots are then
 *       pxe/boot and pxe/tftp in BULWARK_DATA_DIR)</td></tr>
 *   <tr><td>BULWARK_PXE_INTERFACE</td><td>io.bulwark.pxe interfaceName: the provisioning
 *       interface DHCP listens on alone</td></tr>
 *   <tr><td>BULWARK_PXE_MODE</td><td>io.bulwark.pxe mode: server or proxy</td></tr>
 *   <tr><td>BULWARK_PXE_SUBNET</td><td>io.bulwark.pxe subnet, e.g. 10.40.0.0/22</td></tr>
 *   <tr><td>BULWARK_PXE_RANGE</td><td>io.bulwark.pxe rangeStart and rangeEnd, as first-last</td></tr>
 *   <tr><td>BULWARK_PXE_HTTP_PORT</td><td>io.bulwark.pxe httpPort</td></tr>
 *   <tr><td>BULWARK_DATA_DIR (also)</td><td>io.bulwark.updates keyFolders (keys/ of the working
 *       folder and keys/ in it), repository (offline-repo in it), stateFolder (updates in it) and
 *       watchFolder (usb in it)</td></tr>
 *   <tr><td>BULWARK_UPDATES_WATCH</td><td>io.bulwark.updates watchFolder: the mount point of the
 *       update stick</td></tr>
 *   <tr><td>BULWARK_AUDIT_MAX_BYTES</td><td>io.bulwark.audit maxBytes: bytes, or with K, M, G or T
 *       (binary) after the number</td></tr>
 * </table>
 */
final class EnvironmentSettings {
  static final String STORE_PID = "io.bulwark.store";
  static final String WEB_PID = "io.bulwark.web";
  static final String TELEMETRY_PID = "io.bulwark.telemetry";
  static final String SIM_PID = "io.bulwark.sim";
  static final String SECRETS_PID = "io.bulwark.security.secrets";
  static final String TLS_PID = "io.bulwark.security.tls";
  static final String AUDIT_PID = "io.bulwark.audit";
  static final String TPM_PID = "io.bulwark.security.tpm";
  static final String AGENT_PID = "io.bulwark.agent";
  static final String AGENT_ACTIONS_PID = "io.bulwark.agent.actions";
  static final String FILES_PID = PrivateFiles.PID;
  static final String REMEDIATION_PID = "io.bulwark.remediation";
  static final String SLURM_PID = "io.bulwark.scheduler.slurm";
  static final String PXE_PID = "io.bulwark.pxe";
  static final String PROVISIONING_PID = "io.bulwark.provisioning";
  static final String UPDATES_PID = "io.bulwark.updates";

  /**
   * The configurations the environment creates when no configuration resource holds them (the
   * others it only overrides): components that are off, or at their defaults, until told.
   */
  static final java.util.Set<String> CREATED =
      java.util.Set.of(
          REMEDIATION_PID, SLURM_PID, AGENT_ACTIONS_PID, PXE_PID, PROVISIONING_PID, UPDATES_PID);

  /** The simulator's own limit (bulwark.sim's SimulatorOptions.MAX_NODES). */
  static final int MAX_SIM_NODES = 4096;

  static final String DEMO_TARGETS_FILE = "sim-targets.json";

  private static final Pattern TCTI = Pattern.compile("[a-z0-9-]+(:[A-Za-z0-9/=,._:-]*)?");
  private static final Pattern SIZE = Pattern.compile("([0-9]{1,19})\\s*([KMGTkmgt](?:i?[Bb])?)?");
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:\\-\\[\\]%]{1,255}");

  private final Map<String, Map<String, Object>> overrides;

  private EnvironmentSettings(Map<String, Map<String, Object>> overrides) {
    this.overrides = overrides;
  }

  /**
   * Reads the BULWARK_* variables of {@code env}.
   *
   * @throws InvalidSettingException naming the first variable whose value is unusable
   */
  static EnvironmentSettings from(Map<String, String> env) {
    Map<String, Map<String, Object>> o = new LinkedHashMap<>();
    String dataDir = value(env, "BULWARK_DATA_DIR");
    if (dataDir != null) {
      Path dir = path("BULWARK_DATA_DIR", dataDir);
      if (Files.exists(dir) && !Files.isDirectory(dir)) {
        throw new InvalidSettingException(
            "BULWARK_DATA_DIR", dataDir, "it is a file, not a folder");
      }
      put(o, STORE_PID, "dataDir", dir.toString());
      put(o, SIM_PID, "fileSd", dir.resolve(DEMO_TARGETS_FILE).toString());
      put(o, TELEMETRY_PID, "fileSd", dir.resolve(DEMO_TARGETS_FILE).toString());
      put(o, TELEMETRY_PID, "rollupFolder", dir.resolve("rollups").toString());
      put(o, SECRETS_PID, "folder", dir.resolve("secrets").toString());
      put(o, TLS_PID, "keystore", dir.resolve("tls").resolve("admin.bcfks").toString());
      put(o, AUDIT_PID, "folder", dir.resolve("audit").toString());
      put(o, FILES_PID, "folders", new String[] {dir.toString()});
      put(
          o,
          PROVISIONING_PID,
          "imageFolder",
          dir.resolve("pxe").resolve("boot").resolve("images").toString());
      put(o, PROVISIONING_PID, "keyFolders", new String[] {"keys", dir.resolve("keys").toString()});
      put(o, UPDATES_PID, "keyFolders", new String[] {"keys", dir.resolve("keys").toString()});
      put(o, UPDATES_PID, "repository", dir.resolve("offline-repo").toString());
      put(o, UPDATES_PID, "stateFolder", dir.resolve("updates").toString());
      put(o, UPDATES_PID, "watchFolder", dir.resolve("usb").toString());
    }
    String httpPort = value(env, "BULWARK_HTTP_PORT");
    if (httpPort != null) {
      throw new InvalidSettingException(
          "BULWARK_HTTP_PORT",
          httpPort,
          "plain HTTP was removed: the admin plane listens on HTTPS only; set BULWARK_HTTPS_PORT");
    }
    String development = value(env, "BULWARK_DEVELOPMENT_MODE");
    if (development != null) {
      if (!development.equals("true") && !development.equals("false")) {
        throw new InvalidSettingException(
            "BULWARK_DEVELOPMENT_MODE", development, "expected true or false");
      }
      put(o, SECRETS_PID, "developmentMode", Boolean.parseBoolean(development));
    }
    String tcti = value(env, "BULWARK_TPM_TCTI");
    if (tcti != null) {
      if (!TCTI.matcher(tcti).matches()) {
        throw new InvalidSettingException(
            "BULWARK_TPM_TCTI",
            tcti,
            "expected a TCTI such as device:/dev/tpmrm0 or swtpm:host=127.0.0.1,port=2321");
      }
      put(o, TPM_PID, "tcti", tcti);
    }
    String httpsPort = value(env, "BULWARK_HTTPS_PORT");
    if (httpsPort != null) {
      put(o, WEB_PID, "httpsPort", port("BULWARK_HTTPS_PORT", httpsPort));
    }
    String bind = value(env, "BULWARK_BIND_ADDRESS");
    if (bind != null) {
      put(o, WEB_PID, "bindAddress", host("BULWARK_BIND_ADDRESS", bind));
    }
    String agentBind = value(env, "BULWARK_AGENT_BIND_ADDRESS");
    if (agentBind != null) {
      put(o, AGENT_PID, "bindAddress", host("BULWARK_AGENT_BIND_ADDRESS", agentBind));
    }
    String agentPort = value(env, "BULWARK_AGENT_PORT");
    if (agentPort != null) {
      put(o, AGENT_PID, "port", port("BULWARK_AGENT_PORT", agentPort));
    }
    String applianceUrl = value(env, "BULWARK_AGENT_APPLIANCE_URL");
    if (applianceUrl != null) {
      if (!applianceUrl.matches("https://[A-Za-z0-9.:\\-\\[\\]]{1,255}")) {
        throw new InvalidSettingException(
            "BULWARK_AGENT_APPLIANCE_URL", applianceUrl, "expected https://host[:port]");
      }
      put(o, AGENT_ACTIONS_PID, "applianceUrl", applianceUrl);
    }
    String fingerprint = value(env, "BULWARK_AGENT_APPLIANCE_FINGERPRINT");
    if (fingerprint != null) {
      String hex = fingerprint.replace(":", "").toLowerCase(java.util.Locale.ROOT);
      if (!hex.matches("[0-9a-f]{64}")) {
        throw new InvalidSettingException(
            "BULWARK_AGENT_APPLIANCE_FINGERPRINT",
            fingerprint,
            "expected the SHA-256 fingerprint (64 hex digits, colons allowed)");
      }
      put(o, AGENT_ACTIONS_PID, "applianceFingerprint", hex);
    }
    String token = value(env, "BULWARK_AGENT_ENROLMENT_TOKEN");
    if (token != null) {
      if (!token.matches("[A-Za-z0-9_-]{8,128}")) {
        throw new InvalidSettingException(
            "BULWARK_AGENT_ENROLMENT_TOKEN", "(hidden)", "expected the token an admin issued");
      }
      put(o, AGENT_ACTIONS_PID, "enrolmentToken", token);
    }
    String actionPort = value(env, "BULWARK_AGENT_ACTION_PORT");
    if (actionPort != null) {
      put(o, AGENT_ACTIONS_PID, "port", port("BULWARK_AGENT_ACTION_PORT", actionPort));
    }
    String advertise = value(env, "BULWARK_AGENT_ADVERTISE_ADDRESS");
    if (advertise != null) {
      put(
          o,
          AGENT_ACTIONS_PID,
          "advertiseAddress",
          host("BULWARK_AGENT_ADVERTISE_ADDRESS", advertise));
    }
    String agentHost = value(env, "BULWARK_AGENT_HOSTNAME");
    if (agentHost != null) {
      String h = host("BULWARK_AGENT_HOSTNAME", agentHost);
      put(o, AGENT_PID, "hostname", h);
      put(o, AGENT_ACTIONS_PID, "hostname", h);
    }
    String smi = value(env, "BULWARK_AGENT_NVIDIA_SMI");
    if (smi != null) {
      put(o, AGENT_ACTIONS_PID, "nvidiaSmi", path("BULWARK_AGENT_NVIDIA_SMI", smi).toString());
    }
    String dcgmi = value(env, "BULWARK_AGENT_DCGMI");
    if (dcgmi != null) {
      put(o, AGENT_ACTIONS_PID, "dcgmi", path("BULWARK_AGENT_DCGMI", dcgmi).toString());
    }
    String simPort = value(env, "BULWARK_SIM_PORT");
    if (simPort != null) {
      put(o, SIM_PID, "port", port("BULWARK_SIM_PORT", simPort));
    }
    String simNodes = value(env, "BULWARK_SIM_NODES");
    if (simNodes != null) {
      put(o, SIM_PID, "nodes", count("BULWARK_SIM_NODES", simNodes, MAX_SIM_NODES));
    }
    String simBmcs = value(env, "BULWARK_SIM_BMCS");
    if (simBmcs != null) {
      put(
          o,
          SIM_PID,
          "bmcs",
          simBmcs.equals("0") ? 0 : count("BULWARK_SIM_BMCS", simBmcs, MAX_SIM_NODES));
    }
    String scenario = value(env, "BULWARK_SIM_SCENARIO");
    if (scenario != null) {
      if (!scenario.equals("demo") && !scenario.equals("none")) {
        throw new InvalidSettingException(
            "BULWARK_SIM_SCENARIO", scenario, "expected demo or none");
      }
      put(o, SIM_PID, "scenario", scenario);
    }
    String auditQuota = value(env, "BULWARK_AUDIT_MAX_BYTES");
    if (auditQuota != null) {
      put(o, AUDIT_PID, "maxBytes", bytes("BULWARK_AUDIT_MAX_BYTES", auditQuota));
    }
    String mode = value(env, "BULWARK_REMEDIATION_MODE");
    if (mode != null) {
      if (!mode.equals("dry-run")
          && !mode.equals("approve-destructive")
          && !mode.equals("automatic")) {
        throw new InvalidSettingException(
            "BULWARK_REMEDIATION_MODE", mode, "expected dry-run, approve-destructive or automatic");
      }
      put(o, REMEDIATION_PID, "initialMode", mode);
    }
    String soak = value(env, "BULWARK_REMEDIATION_SOAK_SECONDS");
    if (soak != null) {
      put(
          o,
          REMEDIATION_PID,
          "soakSeconds",
          count("BULWARK_REMEDIATION_SOAK_SECONDS", soak, 86_400));
    }
    String slurmConf = value(env, "BULWARK_SLURM_CONF");
    if (slurmConf != null) {
      Path conf = path("BULWARK_SLURM_CONF", slurmConf);
      if (!Files.isRegularFile(conf) || !Files.isReadable(conf)) {
        throw new InvalidSettingException(
            "BULWARK_SLURM_CONF", slurmConf, "no readable slurm.conf there");
      }
      put(o, SLURM_PID, "slurmConf", conf.toString());
    }
    pxe(env, o);
    String watch = value(env, "BULWARK_UPDATES_WATCH");
    if (watch != null) {
      put(o, UPDATES_PID, "watchFolder", path("BULWARK_UPDATES_WATCH", watch).toString());
    }
    String fileSd = value(env, "BULWARK_FILE_SD");
    if (fileSd != null) {
      Path file = path("BULWARK_FILE_SD", fileSd);
      if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
        throw new InvalidSettingException(
            "BULWARK_FILE_SD",
            fileSd,
            "no readable file there; give the path of a Prometheus file_sd JSON file");
      }
      put(o, TELEMETRY_PID, "fileSd", file.toString());
      put(o, SIM_PID, "enabled", Boolean.FALSE);
    }
    return new EnvironmentSettings(o);
  }

  private static final Pattern IPV4 =
      Pattern.compile(
          "((25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])");

  private static void pxe(Map<String, String> env, Map<String, Map<String, Object>> o) {
    String address = value(env, "BULWARK_PXE_ADDRESS");
    String[] others = {
      "BULWARK_PXE_INTERFACE",
      "BULWARK_PXE_MODE",
      "BULWARK_PXE_SUBNET",
      "BULWARK_PXE_RANGE",
      "BULWARK_PXE_HTTP_PORT"
    };
    if (address == null) {
      for (String name : others) {
        if (env.get(name) != null) {
          throw new InvalidSettingException(
              name, env.get(name), "it needs BULWARK_PXE_ADDRESS, which turns the plane on");
        }
      }
      return;
    }
    if (!IPV4.matcher(address).matches()) {
      throw new InvalidSettingException(
          "BULWARK_PXE_ADDRESS",
          address,
          "expected the appliance's IPv4 address on the provisioning network");
    }
    put(o, PXE_PID, "address", address);
    String dataDir = env.get("BULWARK_DATA_DIR");
    if (dataDir != null && !dataDir.isBlank()) {
      Path pxe = Path.of(dataDir.trim()).resolve("pxe");
      put(o, PXE_PID, "bootRoot", pxe.resolve("boot").toString());
      put(o, PXE_PID, "tftpRoot", pxe.resolve("tftp").toString());
    }
    String ifname = value(env, "BULWARK_PXE_INTERFACE");
    if (ifname != null) {
      if (!ifname.matches("[A-Za-z0-9_.:-]{1,15}")) {
        throw new InvalidSettingException(
            "BULWARK_PXE_INTERFACE",
            ifname,
            "expected an interface name of 1-15 characters, e.g. eno2");
      }
      put(o, PXE_PID, "interfaceName", ifname);
    }
    String mode = value(env, "BULWARK_PXE_MODE");
    if (mode != null) {
      if (!mode.equals("server") && !mode.equals("proxy")) {
        throw new InvalidSettingException("BULWARK_PXE_MODE", mode, "expected server or proxy");
      }
      put(o, PXE_PID, "mode", mode);
    }
    String subnet = value(env, "BULWARK_PXE_SUBNET");
    if (subnet != null) {
      String[] cidr = subnet.split("/");
      if (cidr.length != 2
          || !IPV4.matcher(cidr[0]).matches()
          || !cidr[1].matches("[0-9]{1,2}")
          || Integer.parseInt(cidr[1]) < 8
          || Integer.parseInt(cidr[1]) > 30) {
        throw new InvalidSettingException(
            "BULWARK_PXE_SUBNET",
            subnet,
            "expected address/prefix with a prefix of 8-30, e.g. 10.40.0.0/22");
      }
      put(o, PXE_PID, "subnet", subnet);
    }
    String range = value(env, "BULWARK_PXE_RANGE");
    if (range != null) {
      String[] ends = range.split("-");
      if (ends.length != 2
          || !IPV4.matcher(ends[0].trim()).matches()
          || !IPV4.matcher(ends[1].trim()).matches()) {
        throw new InvalidSettingException(
            "BULWARK_PXE_RANGE", range, "expected first-last, e.g. 10.40.0.100-10.40.1.250");
      }
      put(o, PXE_PID, "rangeStart", ends[0].trim());
      put(o, PXE_PID, "rangeEnd", ends[1].trim());
    }
    String httpPort = value(env, "BULWARK_PXE_HTTP_PORT");
    if (httpPort != null) {
      put(o, PXE_PID, "httpPort", port("BULWARK_PXE_HTTP_PORT", httpPort));
    }
  }

  /** Returns the properties to override for the configuration {@code pid}; empty if none. */
  Map<String, Object> overridesFor(String pid) {
    return overrides.getOrDefault(pid, Map.of());
  }

  /** Returns every override, by PID. */
  Map<String, Map<String, Object>> all() {
    return overrides;
  }

  private static String value(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null) {
      return null;
    }
    if (v.isBlank()) {
      throw new InvalidSettingException(name, v, "it is empty; unset it or give a value");
    }
    return v.trim();
  }

  private static void put(
      Map<String, Map<String, Object>> o, String pid, String key, Object value) {
    o.computeIfAbsent(pid, p -> new LinkedHashMap<>()).put(key, value);
  }

  private static int count(String name, String value, int max) {
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidSettingException(name, value, "expected a whole number from 1 to " + max);
  }

  private static int port(String name, String value) {
    try {
      int port = Integer.parseInt(value);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidSettingException(name, value, "expected a TCP port number from 1 to 65535");
  }

  /** Reads a size such as {@code 1073741824}, {@code 512M} or {@code 4GiB} (binary units). */
  static long bytes(String name, String value) {
    Matcher m = SIZE.matcher(value);
    if (m.matches()) {
      try {
        long number = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? " " : m.group(2);
        int shift =
            switch (Character.toUpperCase(unit.charAt(0))) {
              case 'K' -> 10;
              case 'M' -> 20;
              case 'G' -> 30;
              case 'T' -> 40;
              default -> 0;
            };
        if (number > 0 && number <= (Long.MAX_VALUE >> shift)) {
          return number << shift;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new InvalidSettingException(
        name, value, "expected a positive size in bytes, e.g. 2147483648, 2048M or 2G");
  }

  private static String host(String name, String value) {
    if (!HOST.matcher(value).matches()) {
      throw new InvalidSettingException(name, value, "expected an IP address or host name");
    }
    return value;
  }

  private static Path path(String name, String value) {
    try {
      return Path.of(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new InvalidSettingException(name, value, "not a valid path: " + e.getReason());
    }
  }
}
