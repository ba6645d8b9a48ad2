package io.bulwark.bmc.ipmi.internal;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The simulated machine behind {@link Suite17Bmc}, a test double: what the IPMI commands that
 * arrive inside an RMCP+ session read and change (IPMI v2.0 chapters 20, 22, 28, 31, 33, 34 and
 * 35): device ID and GUID, FRU device 0, chassis power, boot options parameters 0, 4 and 5, an SDR
 * repository with two full sensor records and their readings, and a SEL with one entry. Written
 * from the specification, not from the driver's classes. Used by the double's one thread; the state
 * getters may be read from the test thread.
 */
final class Suite17Machine {
  static final int OPERATOR = 0x03;
  static final int USER = 0x02;

  /** IANA 10876 (Supermicro), product 0x1711. */
  static final byte[] DEVICE_ID = {
    0x20, 0x01, 0x02, 0x17, 0x02, (byte) 0x8f, 0x7c, 0x2a, 0x00, 0x11, 0x17, 0, 0, 0, 0
  };

  private static final int SDR_RESERVATION = 0x5a01;
  private static final int SEL_RESERVATION = 0x3c01;

  private final byte[] guid;
  private final byte[] fru = IpmiSimulator.fru();
  private final List<byte[]> sdrs =
      List.of(
          withId(1, IpmiSimulator.full(1, 0x01, 0x01, 1, 0, 0, 0, 0x55, 0x05, "CPU Temp")),
          withId(2, IpmiSimulator.full(2, 0x04, 0x12, 50, 0, 0, 0, 0xf0, 0x0a, "Fan 1")));

  /** Record 1: memory sensor 0x60, uncorrectable ECC, logged at 0x66000030 (2024-03-24). */
  private final byte[] sel = hex("0100 02 30000066 2000 04 0c 60 6f a1 00 03");

  private final List<String> actions = new CopyOnWriteArrayList<>();
  private volatile boolean powerOn = true;
  private volatile byte[] bootFlags = new byte[5];
  private volatile int setInProgress;
  private byte[] bootInfoAck = {0, 0};

  Suite17Machine(byte[] guid) {
    this.guid = guid.clone();
  }

  boolean powerOn() {
    return powerOn;
  }

  void powerOn(boolean on) {
    powerOn = on;
  }

  /** The five data bytes of boot options parameter 5 (boot flags) as last set. */
  byte[] bootFlags() {
    return bootFlags.clone();
  }

  /** The Chassis Control actions in the order they came ("power down", "power up", ...). */
  List<String> actions() {
    return List.copyOf(actions);
  }

  /** The least session privilege a command needs (table G-1). */
  static int privilegeNeeded(int netFn, int cmd) {
    if (netFn == 0x00 && (cmd == 0x02 || cmd == 0x08)) {
      return OPERATOR;
    }
    return USER;
  }

  /** Executes one request; returns the completion code and the response data. */
  byte[] execute(int netFn, int cmd, byte[] data) {
    return switch (netFn << 8 | cmd) {
      case 0x0601 -> ok(DEVICE_ID);
      case 0x0637 -> ok(guid);
      case 0x0001 -> ok(new byte[] {(byte) (powerOn ? 0x01 : 0x00), 0x00, 0x00, 0x00});
      case 0x0002 -> chassisControl(data);
      case 0x0008 -> setBootOption(data);
      case 0x0009 -> getBootOption(data);
      case 0x0a10 -> fruInfo(data);
      case 0x0a11 -> readFru(data);
      case 0x0a20 -> ok(repositoryInfo(0x51, sdrs.size(), 0x22));
      case 0x0a22 -> ok(le16(SDR_RESERVATION));
      case 0x0a23 -> getRecord(data, sdrs, SDR_RESERVATION);
      case 0x042d -> sensorReading(data);
      case 0x0a40 -> ok(repositoryInfo(0x51, 1, 0x02));
      case 0x0a42 -> ok(le16(SEL_RESERVATION));
      case 0x0a43 -> getRecord(data, List.of(sel), SEL_RESERVATION);
      default -> cc(0xc1);
    };
  }

  private byte[] chassisControl(byte[] data) {
    if (data.length != 1) {
      return cc(0xc7);
    }
    switch (data[0] & 0x0f) {
      case 0x00 -> act("power down", false);
      case 0x01 -> act("power up", true);
      case 0x02 -> {
        if (!powerOn) {
          return cc(0xd5);
        }
        act("power cycle", true);
      }
      case 0x03 -> act("hard reset", powerOn);
      case 0x05 -> act("soft shutdown", false);
      default -> {
        return cc(0xcc);
      }
    }
    return cc(0x00);
  }

  private void act(String what, boolean on) {
    actions.add(what);
    powerOn = on;
  }

  private byte[] setBootOption(byte[] data) {
    if (data.length < 1) {
      return cc(0xc7);
    }
    int parameter = data[0] & 0x7f;
    byte[] value = Arrays.copyOfRange(data, 1, data.length);
    switch (parameter) {
      case 0x00 -> {
        if (value.length != 1) {
          return cc(0xc7);
        }
        setInProgress = value[0] & 0x03;
      }
      case 0x04 -> {
        if (value.length != 2) {
          return cc(0xc7);
        }
        bootInfoAck = value;
      }
      case 0x05 -> {
        if (value.length != 5) {
          return cc(0xc7);
        }
        bootFlags = value;
      }
      default -> {
        return cc(0x80);
      }
    }
    return cc(0x00);
  }

  private byte[] getBootOption(byte[] data) {
    if (data.length != 3) {
      return cc(0xc7);
    }
    int parameter = data[0] & 0x7f;
    byte[] value =
        switch (parameter) {
          case 0x00 -> new byte[] {(byte) setInProgress};
          case 0x04 -> bootInfoAck.clone();
          case 0x05 -> bootFlags.clone();
          default -> null;
        };
    if (value == null) {
      return cc(0x80);
    }
    byte[] head = {0x01, (byte) parameter};
    return ok(concat(head, value));
  }

  private byte[] fruInfo(byte[] data) {
    if (data.length != 1) {
      return cc(0xc7);
    }
    return data[0] != 0
        ? cc(0xcb)
        : ok(new byte[] {(byte) fru.length, (byte) (fru.length >> 8), 0});
  }

  private byte[] readFru(byte[] data) {
    if (data.length != 4) {
      return cc(0xc7);
    }
    if (data[0] != 0) {
      return cc(0xcb);
    }
    int offset = (data[1] & 0xff) | (data[2] & 0xff) << 8;
    int count = Math.min(data[3] & 0xff, Math.max(0, fru.length - offset));
    byte[] out = new byte[1 + count];
    out[0] = (byte) count;
    System.arraycopy(fru, Math.min(offset, fru.length), out, 1, count);
    return ok(out);
  }

  /** SDR Repository Info (table 33-3) or SEL Info (table 31-2): both start with version, count. */
  private static byte[] repositoryInfo(int version, int count, int operations) {
    byte[] r = new byte[14];
    r[0] = (byte) version;
    r[1] = (byte) count;
    r[2] = (byte) (count >> 8);
    r[3] = (byte) 0x00;
    r[4] = (byte) 0x10; // free space 4096 bytes
    r[r.length - 1] = (byte) operations;
    return r;
  }

  /** Get SDR (table 33-8) and Get SEL Entry (table 31-5) have the same request and answer. */
  private static byte[] getRecord(byte[] data, List<byte[]> records, int reservation) {
    if (data.length != 6) {
      return cc(0xc7);
    }
    int reserved = (data[0] & 0xff) | (data[1] & 0xff) << 8;
    int id = (data[2] & 0xff) | (data[3] & 0xff) << 8;
    int offset = data[4] & 0xff;
    int count = data[5] & 0xff;
    if (offset != 0 && reserved != reservation) {
      return cc(0xc5);
    }
    int index = id == 0x0000 ? 0 : id == 0xffff ? records.size() - 1 : id - 1;
    if (index < 0 || index >= records.size()) {
      return cc(0xcb);
    }
    byte[] record = records.get(index);
    if (offset > record.length) {
      return cc(0xc9);
    }
    int n = count == 0xff ? record.length - offset : Math.min(count, record.length - offset);
    int next = index + 1 < records.size() ? index + 2 : 0xffff;
    return ok(concat(le16(next), Arrays.copyOfRange(record, offset, offset + n)));
  }

  /** Get Sensor Reading (table 35-15): reading, scanning enabled, no threshold crossed. */
  private static byte[] sensorReading(byte[] data) {
    if (data.length != 1) {
      return cc(0xc7);
    }
    return switch (data[0]) {
      case 1 -> ok(new byte[] {45, (byte) 0xc0, 0x00});
      case 2 -> ok(new byte[] {90, (byte) 0xc0, 0x00});
      default -> cc(0xcb);
    };
  }

  private static byte[] withId(int id, byte[] record) {
    byte[] r = record.clone();
    r[0] = (byte) id;
    r[1] = (byte) (id >> 8);
    return r;
  }

  private static byte[] ok(byte[] data) {
    return concat(new byte[] {0x00}, data);
  }

  private static byte[] cc(int code) {
    return new byte[] {(byte) code};
  }

  private static byte[] le16(int v) {
    return new byte[] {(byte) v, (byte) (v >> 8)};
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static byte[] hex(String s) {
    return java.util.HexFormat.of().parseHex(s.replace(" ", ""));
  }
}
