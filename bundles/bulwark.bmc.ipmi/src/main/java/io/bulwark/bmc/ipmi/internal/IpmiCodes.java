package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException.Kind;

/**
 * The words for IPMI's numeric answers: completion codes (IPMI v2.0 table 5-2, plus the boot
 * options codes of table 28-14) and RMCP+ status codes of Open Session and RAKP (table 13-15), each
 * with the {@link Kind} of failure it is.
 */
final class IpmiCodes {
  private IpmiCodes() {}

  static String completion(int cc) {
    return switch (cc) {
      case 0x00 -> "success";
      case 0x80 -> "parameter not supported";
      case 0x81 -> "a set is already in progress";
      case 0x82 -> "the parameter is read-only";
      case 0xc0 -> "node busy";
      case 0xc1 -> "invalid or unsupported command";
      case 0xc2 -> "command invalid for the given LUN";
      case 0xc3 -> "timeout while processing the command";
      case 0xc4 -> "out of space";
      case 0xc5 -> "reservation cancelled or invalid";
      case 0xc6 -> "request data truncated";
      case 0xc7 -> "request data length invalid";
      case 0xc8 -> "request data field length limit exceeded";
      case 0xc9 -> "parameter out of range";
      case 0xca -> "cannot return the number of requested bytes";
      case 0xcb -> "requested sensor, data or record not present";
      case 0xcc -> "invalid data field in the request";
      case 0xcd -> "command illegal for the sensor or record type";
      case 0xce -> "response could not be provided";
      case 0xcf -> "duplicated request";
      case 0xd0 -> "SDR repository in update mode";
      case 0xd1 -> "device in firmware update mode";
      case 0xd2 -> "BMC initialization in progress";
      case 0xd3 -> "destination unavailable";
      case 0xd4 -> "insufficient privilege level";
      case 0xd5 -> "not supported in the present state";
      case 0xd6 -> "sub-function disabled or unavailable";
      case 0xff -> "unspecified error";
      default -> String.format("completion code 0x%02x", cc);
    };
  }

  static Kind completionKind(int cc) {
    return switch (cc) {
      case 0xc0, 0xd0, 0xd1, 0xd2, 0x81 -> Kind.BUSY;
      case 0xc3, 0xce -> Kind.TIMEOUT;
      case 0x80, 0xc1, 0xc2, 0xcb, 0xcc, 0xcd, 0xd5, 0xd6 -> Kind.UNSUPPORTED;
      case 0xd4 -> Kind.CREDENTIALS;
      default -> Kind.PROTOCOL;
    };
  }

  static String rakpStatus(int status) {
    return switch (status) {
      case 0x00 -> "no errors";
      case 0x01 -> "insufficient resources to create a session";
      case 0x02 -> "invalid session ID";
      case 0x03 -> "invalid payload type";
      case 0x04 -> "invalid authentication algorithm";
      case 0x05 -> "invalid integrity algorithm";
      case 0x06 -> "no matching authentication payload";
      case 0x07 -> "no matching integrity payload";
      case 0x08 -> "inactive session ID";
      case 0x09 -> "invalid role";
      case 0x0a -> "unauthorized role or privilege level requested";
      case 0x0b -> "insufficient resources to create a session at the requested role";
      case 0x0c -> "invalid name length";
      case 0x0d -> "unauthorized name";
      case 0x0e -> "unauthorized GUID";
      case 0x0f -> "invalid integrity check value";
      case 0x10 -> "invalid confidentiality algorithm";
      case 0x11 -> "no cipher suite match with the proposed security algorithms";
      case 0x12 -> "illegal or unrecognized parameter";
      default -> String.format("RMCP+ status 0x%02x", status);
    };
  }

  static Kind rakpKind(int status) {
    return switch (status) {
      case 0x01, 0x0b -> Kind.BUSY;
      case 0x09, 0x0a, 0x0c, 0x0d, 0x0e, 0x0f -> Kind.CREDENTIALS;
      case 0x04, 0x05, 0x06, 0x07, 0x10, 0x11 -> Kind.UNSUPPORTED;
      default -> Kind.PROTOCOL;
    };
  }
}
