package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcLogEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the BMC's System Event Log: Get SEL Info, then Get SEL Entry from the first record on (the
 * SEL can only be walked forward), keeping the newest {@code max} and returning them newest first,
 * as the records' order in the SEL is the order the BMC logged them.
 */
final class SystemEventLog {
  private final RmcpSession session;

  SystemEventLog(RmcpSession session) {
    this.session = session;
  }

  List<BmcLogEntry> newest(int max) throws BmcException {
    if (max <= 0) {
      return List.of();
    }
    byte[] info =
        session.command(IpmiMessage.NETFN_STORAGE, 0x40, new byte[0], "Get SEL Info request");
    int entries = info.length >= 3 ? (info[1] & 0xff) | (info[2] & 0xff) << 8 : 0;
    if (entries == 0) {
      return List.of();
    }
    // Whole entries are read from offset 0, which needs no reservation (0000h, table 31-5):
    // concurrent readers of the same BMC do not cancel each other.
    byte[] reservation = new byte[2];
    Deque<BmcLogEntry> newest = new ArrayDeque<>();
    Set<Integer> seen = new HashSet<>();
    int id = 0x0000;
    while (id != 0xffff && seen.add(id) && seen.size() <= entries + 16) {
      byte[] req = {reservation[0], reservation[1], (byte) id, (byte) (id >>> 8), 0, (byte) 0xff};
      byte[] data = session.command(IpmiMessage.NETFN_STORAGE, 0x43, req, "Get SEL Entry request");
      try {
        newest.addFirst(SelRecord.decode(Wire.slice(data, 2, 16)));
        id = Wire.u16(data, 0);
      } catch (Wire.MalformedException e) {
        throw new BmcException(
            Kind.PROTOCOL,
            "BMC " + session.bmc() + " sent a malformed SEL entry " + id + ": " + e.getMessage(),
            e);
      }
      if (newest.size() > max) {
        newest.removeLast();
      }
    }
    return new ArrayList<>(newest);
  }
}
