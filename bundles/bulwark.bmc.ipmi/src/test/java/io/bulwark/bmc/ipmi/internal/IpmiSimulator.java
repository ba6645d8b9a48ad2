package io.bulwark.bmc.ipmi.internal;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenIPMI {@code ipmi_sim} (Debian package openipmi) on 127.0.0.1 and a free UDP port, set
 * up from a generated lan.conf and emu command file: one BMC with a user, a GUID, FRU data, SDRs
 * for temperature, fan, voltage, power and power supply sensors, a SEL with five entries (added by
 * {@code sel_add}), and chassis power and boot control through a small shell script that keeps its
 * state in files (the sim's {@code chassis_control} interface). Also runs Debian's {@code ipmitool}
 * against it for cross-checks.
 */
final class IpmiSimulator implements AutoCloseable {
  static final String USER = "bulwark";
  static final String PASSWORD = "Bmc-Pass-42";
  static final String GUID = "a123456789abcdefa123456789abcdef";

  private final Path dir;
  private final int port;
  private final Process process;

  static boolean installed() {
    return Files.isExecutable(Path.of("/usr/bin/ipmi_sim"));
  }

  static boolean ipmitoolInstalled() {
    return Files.isExecutable(Path.of("/usr/bin/ipmitool"));
  }

  private IpmiSimulator(Path dir, int port, Process process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  static IpmiSimulator start(Path dir) throws Exception {
    int port;
    try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Files.createDirectories(dir.resolve("state"));
    Path chassis = dir.resolve("chassis.sh");
    Files.writeString(
        chassis,
        String.join(
            "\n",
            "#!/bin/sh",
            "# ipmi_sim's chassis_control program: <dir> get|set name [value] ...",
            "d=\"$1\"; shift; op=\"$1\"; shift",
            "echo \"$op $*\" >> \"$d/chassis.log\"",
            "while [ $# -gt 0 ]; do",
            "  n=\"$1\"; shift",
            "  if [ \"$op\" = set ]; then",
            "    v=\"$1\"; shift",
            "    if [ \"$n\" = shutdown ]; then echo 0 > \"$d/power\"; else echo \"$v\" > \"$d/$n\"; fi",
            "  else",
            "    echo \"$n:$(cat \"$d/$n\")\"",
            "  fi",
            "done",
            ""));
    chassis.toFile().setExecutable(true);
    Files.writeString(dir.resolve("power"), "1\n");
    Files.writeString(dir.resolve("boot"), "none\n");
    Files.writeString(
        dir.resolve("lan.conf"),
        String.join(
            "\n",
            "name \"bulwarksim\"",
            "set_working_mc 0x20",
            "  startlan 1",
            "    addr 127.0.0.1 " + port,
            "    priv_limit admin",
            "    allowed_auths_callback md5",
            "    allowed_auths_user md5",
            "    allowed_auths_operator md5",
            "    allowed_auths_admin md5",
            "    guid " + GUID,
            "  endlan",
            "  chassis_control \"" + chassis + " " + dir + "\"",
            "  user 2 true \"" + USER + "\" \"" + PASSWORD + "\" admin 10 md5",
            ""));
    Files.writeString(dir.resolve("sim.emu"), emu());
    Process p =
        new ProcessBuilder(
                "/usr/bin/ipmi_sim",
                "-c",
                dir.resolve("lan.conf").toString(),
                "-f",
                dir.resolve("sim.emu").toString(),
                "-s",
                dir.resolve("state").toString(),
                "-n")
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("sim.out").toFile())
            .start();
    IpmiSimulator sim = new IpmiSimulator(dir, port, p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (sim.ipmitool("-C", "3", "mc", "info").exitCode() != 0) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        sim.close();
        throw new IllegalStateException(
            "ipmi_sim did not start: " + Files.readString(dir.resolve("sim.out")));
      }
      Thread.sleep(100);
    }
    return sim;
  }

  int port() {
    return port;
  }

  Path dir() {
    return dir;
  }

  String chassisLog() throws IOException {
    Path log = dir.resolve("chassis.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  String powerFile() throws IOException {
    return Files.readString(dir.resolve("power")).strip();
  }

  void setPower(boolean on) throws IOException {
    Files.writeString(dir.resolve("power"), on ? "1\n" : "0\n");
  }

  record Result(int exitCode, String output) {}

  /** Runs {@code ipmitool -I lanplus} as {@link #USER} against the sim with {@code args}. */
  Result ipmitool(String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "/usr/bin/ipmitool",
                "-I",
                "lanplus",
                "-H",
                "127.0.0.1",
                "-p",
                Integer.toString(port),
                "-U",
                USER,
                "-P",
                PASSWORD,
                "-N",
                "1",
                "-R",
                "2"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, out);
    }
    return new Result(p.exitValue(), out);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  // ---- the simulated machine ----

  private static String emu() {
    List<String> l = new ArrayList<>();
    l.add("mc_setbmc 0x20");
    // Get Device ID: device 0, no device SDRs, rev 3, firmware 9.8, IPMI 2.0 support bits,
    // manufacturer 10876 (0x2a7c, Supermicro), product 0x1234.
    l.add("mc_add 0x20 0 no-device-sdrs 0x03 9 8 0x9f 0x2a7c 0x1234");
    l.add("mc_set_guid 0x20 " + GUID);
    l.add("sel_enable 0x20 1000 0x0a");
    l.add("mc_add_fru_data 0x20 0 " + fru().length + " data " + hex(fru()));
    // Sensor 1: CPU Temp, 1 degC per count, thresholds LC 5, UC 85 (raw = degC).
    l.add(sdr(full(1, 0x01, 0x01, 1, 0, 0, 0, 0x55, 0x05, "CPU Temp")));
    l.add("sensor_add 0x20 0 1 0x01 0x01");
    l.add("sensor_set_threshold 0x20 0 1 settable 111111 0x5f 0x55 0x50 0x00 0x05 0x0a");
    l.add("sensor_set_value 0x20 0 1 45 0");
    // Sensor 2: GPU Temp at 88 degC, past its upper critical 85: Critical.
    l.add(sdr(full(2, 0x01, 0x01, 1, 0, 0, 0, 0x55, 0x05, "GPU Temp")));
    l.add("sensor_add 0x20 0 2 0x01 0x01");
    l.add("sensor_set_threshold 0x20 0 2 settable 111111 0x5f 0x55 0x50 0x00 0x05 0x0a");
    l.add("sensor_set_value 0x20 0 2 88 0");
    // Sensor 3: Fan 1, 50 RPM per count: raw 90 = 4500 RPM; LC raw 10 = 500 RPM.
    l.add(sdr(full(3, 0x04, 0x12, 50, 0, 0, 0, 0xf0, 0x0a, "Fan 1")));
    l.add("sensor_add 0x20 0 3 0x04 0x01");
    l.add("sensor_set_threshold 0x20 0 3 settable 000010 0x00 0x00 0x00 0x00 0x0a 0x00");
    l.add("sensor_set_value 0x20 0 3 90 0");
    // Sensor 4: 12V, y = (6 x + 5) 10^-2 V: raw 200 = 12.05 V.
    l.add(sdr(full(4, 0x02, 0x04, 6, 5, 0, -2, 0xfa, 0xb4, "12V")));
    l.add("sensor_add 0x20 0 4 0x02 0x01");
    l.add("sensor_set_value 0x20 0 4 200 0");
    // Sensor 5: Total Power (other units-based, watts), 4 W per count: raw 75 = 300 W.
    l.add(sdr(full(5, 0x0b, 0x06, 4, 0, 0, 0, 0xff, 0x00, "Total Power")));
    l.add("sensor_add 0x20 0 5 0x0b 0x01");
    l.add("sensor_set_value 0x20 0 5 75 0");
    // Sensors 6 and 7: power supplies (compact records, sensor-specific): present; failed.
    l.add(sdr(compact(6, 0x08, 0x6f, "PSU1 Status")));
    l.add("sensor_add 0x20 0 6 0x08 0x6f");
    l.add("sensor_set_bit_clr_rest 0x20 0 6 0 1 0");
    l.add(sdr(compact(7, 0x08, 0x6f, "PSU2 Status")));
    l.add("sensor_add 0x20 0 7 0x08 0x6f");
    l.add("sensor_set_bit_clr_rest 0x20 0 7 0 1 0");
    l.add("sensor_set_bit 0x20 0 7 1 1 0");
    // SEL: record type, timestamp (LE), generator 0x0020, EvM rev 4, sensor type, number,
    // event dir/type, event data 1-3.
    l.add("sel_add 0x20 0x02 0x00 0x00 0x00 0x66 0x20 0x00 0x04 0x01 0x01 0x01 0x59 0x58 0x55");
    l.add("sel_add 0x20 0x02 0x00 0x10 0x00 0x00 0x20 0x00 0x04 0x07 0x40 0x6f 0x00 0xff 0xff");
    l.add("sel_add 0x20 0x02 0x10 0x00 0x00 0x66 0x20 0x00 0x04 0x13 0x41 0x6f 0x0a 0xff 0xff");
    l.add("sel_add 0x20 0x02 0x20 0x00 0x00 0x66 0x20 0x00 0x04 0x08 0x07 0x6f 0x01 0xff 0xff");
    l.add("sel_add 0x20 0x02 0x30 0x00 0x00 0x66 0x20 0x00 0x04 0x0c 0x60 0x6f 0xa1 0x00 0x03");
    l.add("mc_enable 0x20");
    return String.join("\n", l) + "\n";
  }

  private static String sdr(byte[] record) {
    return "main_sdr_add 0x20 " + hex(record);
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("0x%02x ", x & 0xff));
    }
    return s.toString().strip();
  }

  /** A full sensor record (type 01h) for a linear threshold sensor owned by the BMC. */
  static byte[] full(
      int number, int type, int unit, int m, int b, int k1, int k2, int uc, int lc, String name) {
    byte[] id = name.getBytes(StandardCharsets.ISO_8859_1);
    byte[] r = new byte[48 + id.length];
    r[2] = 0x51;
    r[3] = 0x01;
    r[4] = (byte) (r.length - 5);
    r[5] = 0x20;
    r[7] = (byte) number;
    r[8] = 0x07;
    r[9] = 0x01;
    r[10] = 0x7f;
    r[11] = 0x68;
    r[12] = (byte) type;
    r[13] = 0x01;
    r[18] = 0x3f; // all six thresholds readable
    r[19] = 0x3f;
    r[21] = (byte) unit;
    r[24] = (byte) m;
    r[25] = (byte) ((m >> 2) & 0xc0);
    r[26] = (byte) b;
    r[27] = (byte) ((b >> 2) & 0xc0);
    r[29] = (byte) ((k2 & 0x0f) << 4 | (k1 & 0x0f));
    r[34] = (byte) 0xff;
    r[37] = (byte) uc;
    r[40] = (byte) lc;
    r[47] = (byte) (0xc0 | id.length);
    System.arraycopy(id, 0, r, 48, id.length);
    return r;
  }

  /** A compact sensor record (type 02h) for a state sensor owned by the BMC. */
  static byte[] compact(int number, int type, int eventType, String name) {
    byte[] id = name.getBytes(StandardCharsets.ISO_8859_1);
    byte[] r = new byte[32 + id.length];
    r[2] = 0x51;
    r[3] = 0x02;
    r[4] = (byte) (r.length - 5);
    r[5] = 0x20;
    r[7] = (byte) number;
    r[8] = 0x0a;
    r[9] = (byte) number;
    r[10] = 0x67;
    r[11] = 0x40;
    r[12] = (byte) type;
    r[13] = (byte) eventType;
    r[14] = 0x7f;
    r[18] = 0x7f;
    r[20] = (byte) 0xc0;
    r[23] = 0x01;
    r[31] = (byte) (0xc0 | id.length);
    System.arraycopy(id, 0, r, 32, id.length);
    return r;
  }

  /** FRU device 0: common header, board area and product area (8-bit ASCII fields). */
  static byte[] fru() {
    byte[] board =
        area(new byte[] {0x01, 0, 0x19, 0, 0, 0}, "Bulwark Labs", "GX-8 Board", "BRD-0042", "PN-1");
    byte[] product =
        area(
            new byte[] {0x01, 0, 0x19},
            "Bulwark Labs",
            "GX-8 Test Node",
            "GX8-A",
            "1.0",
            "SIM-000123",
            "",
            "");
    byte[] fru = new byte[8 + board.length + product.length];
    fru[0] = 0x01;
    fru[3] = 1;
    fru[4] = (byte) (1 + board.length / 8);
    fru[7] = (byte) -(fru[0] + fru[3] + fru[4]);
    System.arraycopy(board, 0, fru, 8, board.length);
    System.arraycopy(product, 0, fru, 8 + board.length, product.length);
    return fru;
  }

  private static byte[] area(byte[] header, String... fields) {
    java.io.ByteArrayOutputStream a = new java.io.ByteArrayOutputStream();
    a.writeBytes(header);
    for (String f : fields) {
      byte[] v = f.getBytes(StandardCharsets.ISO_8859_1);
      a.write(0xc0 | v.length);
      a.writeBytes(v);
    }
    a.write(0xc1);
    while ((a.size() + 1) % 8 != 0) {
      a.write(0);
    }
    byte[] r = java.util.Arrays.copyOf(a.toByteArray(), a.size() + 1);
    r[1] = (byte) (r.length / 8);
    int sum = 0;
    for (int i = 0; i < r.length - 1; i++) {
      sum += r[i];
    }
    r[r.length - 1] = (byte) -sum;
    return r;
  }
}
