package io.bulwark.machines.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.NewMachine;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A machine as an admin describes it (one add, or one row of a site inventory import): checked into
 * a {@link NewMachine} and its BMC credentials, or refused with a message that names the field and
 * the value. The host name is an RFC 1123 name ({@link HostName}). Also reads the inventory CSV: a
 * header row naming the columns ({@code hostname}, {@code id}, {@code macs}, {@code rack}, {@code
 * zone}, {@code tags}, {@code node}, {@code bmc_protocol}, {@code bmc_address}, {@code bmc_port},
 * {@code bmc_username}, {@code bmc_password}, {@code bmc_sha256}, {@code bmc_system}; lists
 * separated by ';'), fields quoted as RFC 4180 quotes them.
 */
final class MachineInput {
  static final int MAX_ROWS = 10_000;
  private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}:){5}[0-9a-f]{2}");
  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  private static final Set<String> COLUMNS =
      Set.of(
          "hostname",
          "id",
          "macs",
          "rack",
          "zone",
          "tags",
          "node",
          "bmc_protocol",
          "bmc_address",
          "bmc_port",
          "bmc_username",
          "bmc_password",
          "bmc_sha256",
          "bmc_system");

  /** A checked machine and the BMC credentials to seal (both null without a BMC). */
  record Parsed(NewMachine machine, String username, char[] password) {
    void clear() {
      if (password != null) {
        Arrays.fill(password, '\0');
      }
    }
  }

  private MachineInput() {}

  /**
   * Checks one machine given as JSON ({@code hostname}, {@code id}, {@code macs}, {@code rack},
   * {@code zone}, {@code tags}, {@code node}, {@code bmc}: {protocol, address, port, username,
   * password, sha256, system}).
   *
   * @throws IllegalArgumentException naming the field and value that cannot be used
   */
  static Parsed parse(JsonObject body) {
    String hostname = HostName.check(required(body, "hostname"), "hostname");
    String idText = text(body, "id", hostname.toLowerCase(Locale.ROOT));
    if (!MachineId.isValid(idText)) {
      throw new IllegalArgumentException(
          "'"
              + idText
              + "' is not a usable machine id: lower-case letters, digits, '.', '_' and '-'");
    }
    List<String> macs = new ArrayList<>();
    for (Object o : array(body, "macs")) {
      String mac = String.valueOf(o).strip().toLowerCase(Locale.ROOT).replace('-', ':');
      if (!MAC.matcher(mac).matches()) {
        throw new IllegalArgumentException("'" + o + "' is not a MAC address (six hex pairs)");
      }
      macs.add(mac);
    }
    Set<String> tags = new TreeSet<>();
    for (Object o : array(body, "tags")) {
      String tag = label(String.valueOf(o), "tag");
      if (!tag.isEmpty()) {
        tags.add(tag);
      }
    }
    String rack = label(text(body, "rack", ""), "rack");
    String zone = label(text(body, "zone", ""), "zone");
    NodeId node = null;
    String nodeText = text(body, "node", "");
    if (!nodeText.isBlank()) {
      if (!NodeId.isValid(nodeText)) {
        throw new IllegalArgumentException("'" + nodeText + "' is not a node name");
      }
      node = NodeId.of(nodeText);
    }
    Bmc bmc = new Bmc(null, null, null);
    Object bmcValue = body.getValue("bmc");
    if (bmcValue != null) {
      if (!(bmcValue instanceof JsonObject b)) {
        throw new IllegalArgumentException(
            "'bmc' is an object: {protocol, address, port, username, password}");
      }
      bmc = bmc(b);
    }
    return new Parsed(
        new NewMachine(
            MachineId.of(idText), hostname, macs, bmc.endpoint(), rack, zone, tags, node),
        bmc.username(),
        bmc.password());
  }

  /** The BMC of a machine and its credentials, as {@link #bmc(JsonObject)} reads them. */
  record Bmc(BmcEndpoint endpoint, String username, char[] password) {
    void clear() {
      if (password != null) {
        Arrays.fill(password, '\0');
      }
    }
  }

  /**
   * Reads a BMC: {@code {protocol (redfish), address, port (the protocol's), username, password,
   * sha256 (optional: a fingerprint to pin at once), system (optional: which system, by Redfish Id
   * or path, where the BMC manages several)}}. The caller clears the password.
   *
   * @throws IllegalArgumentException naming the field and value that cannot be used
   */
  static Bmc bmc(JsonObject b) {
    BmcProtocol protocol =
        BmcProtocol.parse(text(b, "protocol", "redfish"))
            .orElseThrow(() -> new IllegalArgumentException("'bmc.protocol' is redfish or ipmi"));
    int port = protocol.defaultPort();
    Object p = b.getValue("port");
    if (p != null && !(p instanceof String s && s.isBlank())) {
      try {
        port =
            p instanceof Number n && n.intValue() == n.doubleValue()
                ? n.intValue()
                : Integer.parseInt(String.valueOf(p).strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'bmc.port' is a whole number, not '" + p + "'");
      }
    }
    // A fingerprint known from the site's inventory is pinned at once; else the first probe shows
    // it for an admin to approve.
    String pin = text(b, "sha256", "").strip().toLowerCase(Locale.ROOT);
    String system = text(b, "system", "").strip();
    BmcEndpoint endpoint = new BmcEndpoint(protocol, required(b, "address"), port, "", pin, system);
    return new Bmc(endpoint, required(b, "username"), required(b, "password").toCharArray());
  }

  /**
   * Turns an inventory CSV into one JSON object per row, in the shape {@link #parse} reads.
   *
   * @throws IllegalArgumentException if the header names an unknown column, a row has another
   *     number of fields, a quote is not closed, or there are more than {@link #MAX_ROWS} rows; the
   *     message names the line
   */
  static List<JsonObject> csv(String text) {
    List<List<String>> rows = records(text);
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(
          "the CSV is empty: it needs a header row and one row per machine");
    }
    List<String> header =
        rows.get(0).stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList();
    for (String h : header) {
      if (!COLUMNS.contains(h)) {
        throw new IllegalArgumentException(
            "the CSV header names an unknown column '"
                + h
                + "'; the columns are "
                + new TreeSet<>(COLUMNS));
      }
    }
    if (!header.contains("hostname")) {
      throw new IllegalArgumentException("the CSV header has no 'hostname' column");
    }
    if (rows.size() - 1 > MAX_ROWS) {
      throw new IllegalArgumentException(
          "the CSV has " + (rows.size() - 1) + " rows; at most " + MAX_ROWS);
    }
    List<JsonObject> out = new ArrayList<>();
    for (int r = 1; r < rows.size(); r++) {
      List<String> row = rows.get(r);
      if (row.size() == 1 && row.get(0).isBlank()) {
        continue;
      }
      if (row.size() != header.size()) {
        throw new IllegalArgumentException(
            "CSV row "
                + (r + 1)
                + " has "
                + row.size()
                + " fields; the header has "
                + header.size());
      }
      JsonObject m = new JsonObject();
      JsonObject bmc = new JsonObject();
      for (int c = 0; c < header.size(); c++) {
        String v = row.get(c).strip();
        String h = header.get(c);
        if (v.isEmpty()) {
          continue;
        }
        switch (h) {
          case "macs", "tags" ->
              m.put(
                  h,
                  new JsonArray(
                      Arrays.stream(v.split(";"))
                          .map(String::strip)
                          .filter(x -> !x.isEmpty())
                          .toList()));
          default -> {
            if (h.startsWith("bmc_")) {
              bmc.put(h.substring(4), v);
            } else {
              m.put(h, v);
            }
          }
        }
      }
      if (!bmc.isEmpty()) {
        m.put("bmc", bmc);
      }
      out.add(m);
    }
    return out;
  }

  /**
   * RFC 4180 records: fields split by ',', quoted with '"' (doubled inside), rows by CRLF or LF.
   */
  private static List<List<String>> records(String text) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    int line = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          if (c == '\n') {
            line++;
          }
          field.append(c);
        }
      } else if (c == '"' && field.length() == 0) {
        quoted = true;
      } else if (c == ',') {
        row.add(field.toString());
        field.setLength(0);
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        row.add(field.toString());
        field.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
        line++;
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException(
          "a quoted CSV field that starts on line " + line + " is not closed");
    }
    if (field.length() > 0 || !row.isEmpty()) {
      row.add(field.toString());
      rows.add(row);
    }
    return rows;
  }

  private static String required(JsonObject body, String field) {
    String value = text(body, field, "");
    if (value.isBlank()) {
      throw new IllegalArgumentException("'" + field + "' is required");
    }
    return value.strip();
  }

  private static String text(JsonObject body, String field, String fallback) {
    Object v = body.getValue(field);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof String s)) {
      throw new IllegalArgumentException("'" + field + "' is text");
    }
    return s;
  }

  private static JsonArray array(JsonObject body, String field) {
    Object value = body.getValue(field);
    if (value == null) {
      return new JsonArray();
    }
    if (!(value instanceof JsonArray a)) {
      throw new IllegalArgumentException("'" + field + "' is a list");
    }
    return a;
  }

  private static String label(String value, String what) {
    String v = value.strip();
    if (!v.isEmpty() && !LABEL.matcher(v).matches()) {
      throw new IllegalArgumentException(
          "'" + value + "' is not a usable " + what + ": letters, digits, '.', '_' and '-'");
    }
    return v;
  }

  /** The columns an inventory CSV may have, for messages and docs. */
  static Set<String> columns() {
    return COLUMNS;
  }
}
