package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.bmc.ipmi.internal.IpmiMessage.Response;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the BMC's sensors: walks the SDR repository (Get SDR Repository Info, Reserve SDR
 * Repository, Get SDR; whole records where the BMC allows, else in 16-byte parts), keeps the full
 * and compact sensor records the BMC itself owns (sensors behind other controllers would need IPMB
 * bridging, which this driver does not do) and reads each with Get Sensor Reading.
 */
final class SdrRepository {
  private static final int MAX_RECORDS = 2048;
  private static final int PART = 16;

  private final RmcpSession session;
  private int reservation;

  SdrRepository(RmcpSession session) {
    this.session = session;
  }

  List<BmcSensor> sensors() throws BmcException {
    List<BmcSensor> out = new ArrayList<>();
    for (SensorRecord r : records()) {
      Response reading =
          session.send(
              r.lun(),
              IpmiMessage.NETFN_SENSOR,
              0x2d,
              new byte[] {(byte) r.number()},
              "Get Sensor Reading request for " + r.name());
      out.add(r.reading(reading.completionCode() == 0 ? reading.data() : null));
    }
    return out;
  }

  List<SensorRecord> records() throws BmcException {
    byte[] info =
        session.command(
            IpmiMessage.NETFN_STORAGE, 0x20, new byte[0], "Get SDR Repository Info request");
    List<SensorRecord> out = new ArrayList<>();
    if (info.length >= 3 && (info[1] | info[2]) == 0) {
      return out;
    }
    Set<Integer> seen = new HashSet<>();
    int id = 0x0000;
    while (id != 0xffff && seen.add(id) && seen.size() <= MAX_RECORDS) {
      byte[][] next = new byte[1][];
      byte[] record = record(id, next);
      try {
        SensorRecord r = SensorRecord.parse(record);
        if (r != null && r.owner() == IpmiMessage.BMC_ADDRESS) {
          out.add(r);
        }
        id = Wire.u16(next[0], 0);
      } catch (Wire.MalformedException e) {
        throw new BmcException(
            Kind.PROTOCOL,
            "BMC " + session.bmc() + " sent a malformed SDR record " + id + ": " + e.getMessage(),
            e);
      }
    }
    return out;
  }

  /** Reserves the repository, needed only for reads at an offset past a record's start. */
  private void reserve() throws BmcException {
    Response r =
        session.send(
            0, IpmiMessage.NETFN_STORAGE, 0x22, new byte[0], "Reserve SDR Repository request");
    reservation =
        r.completionCode() == 0 && r.data().length >= 2
            ? (r.data()[0] & 0xff) | (r.data()[1] & 0xff) << 8
            : 0;
  }

  private void reserveAgain() throws BmcException {
    try {
      Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(5, 50));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    reserve();
  }

  /** Reads record {@code id}; puts the next record's id (2 bytes) into {@code next[0]}. */
  private byte[] record(int id, byte[][] next) throws BmcException {
    for (int attempt = 0; attempt < 10; attempt++) {
      // Reads from offset 0 need no reservation (table 33-8: 0000h), so none is taken until the
      // BMC asks for one (ipmi_sim does); reservations are per BMC, so concurrent readers cancel
      // each other's: then reserve again after a short random pause.
      Response whole = get(id, 0, 0xff);
      if (whole.completionCode() == 0 && whole.data().length >= 2 + 5) {
        next[0] = whole.data();
        return java.util.Arrays.copyOfRange(whole.data(), 2, whole.data().length);
      }
      if (whole.completionCode() == 0xc5) {
        reserveAgain();
        continue;
      }
      Response head = get(id, 0, 5);
      if (head.completionCode() == 0xc5) {
        reserveAgain();
        continue;
      }
      if (head.completionCode() != 0 || head.data().length < 2 + 5) {
        throw session.failed("Get SDR request for record " + id, head.completionCode());
      }
      next[0] = head.data();
      if (reservation == 0) {
        reserve();
      }
      int length = 5 + (head.data()[2 + 4] & 0xff);
      ByteArrayOutputStream record = new ByteArrayOutputStream();
      record.write(head.data(), 2, 5);
      boolean cancelled = false;
      while (record.size() < length && !cancelled) {
        int count = Math.min(PART, length - record.size());
        Response part = get(id, record.size(), count);
        if (part.completionCode() == 0xc5) {
          reserveAgain();
          cancelled = true;
        } else if (part.completionCode() != 0 || part.data().length <= 2) {
          throw session.failed("Get SDR request for record " + id, part.completionCode());
        } else {
          record.write(part.data(), 2, part.data().length - 2);
        }
      }
      if (!cancelled) {
        return record.toByteArray();
      }
    }
    throw new BmcException(
        Kind.BUSY,
        "BMC " + session.bmc() + " kept cancelling the SDR reservation (its SDRs are changing)",
        null);
  }

  private Response get(int id, int offset, int count) throws BmcException {
    byte[] req = new byte[6];
    Wire.put16(req, 0, reservation);
    Wire.put16(req, 2, id);
    req[4] = (byte) offset;
    req[5] = (byte) count;
    return session.send(0, IpmiMessage.NETFN_STORAGE, 0x23, req, "Get SDR request");
  }
}
