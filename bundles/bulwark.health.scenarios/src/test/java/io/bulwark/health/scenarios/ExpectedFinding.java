package io.bulwark.health.scenarios;

import io.bulwark.api.health.FindingKind;
import io.vertx.core.json.JsonObject;

/**
 * A label of a scenario: the finding the detectors must raise, its kind, node (index in the
 * scenario's fleet), GPU ({@code -1} for a node finding) and the second at which the fault begins.
 * {@code critical} marks a hard failure (a critical XID, a double-bit ECC error, a failed row
 * remap, a missing GPU), which must be found within two sampling intervals.
 */
record ExpectedFinding(String kind, int node, int gpu, int onsetSecond, boolean critical) {
  ExpectedFinding {
    if (!FindingKind.isValid(kind)) {
      throw new IllegalArgumentException("not a finding kind: " + kind);
    }
    if (node < 0 || gpu < -1 || onsetSecond < 0) {
      throw new IllegalArgumentException(
          "label needs node >= 0, gpu >= -1 and onset >= 0: "
              + node
              + "/"
              + gpu
              + "@"
              + onsetSecond);
    }
  }

  static ExpectedFinding from(JsonObject json) {
    return new ExpectedFinding(
        json.getString("kind"),
        json.getInteger("node", 0),
        json.getInteger("gpu", -1),
        json.getInteger("onset", 0),
        json.getBoolean("critical", false));
  }
}
