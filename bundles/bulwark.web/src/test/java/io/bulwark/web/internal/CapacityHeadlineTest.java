package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.GpuCapacity;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fleet headline never shows healthy what Bulwark cannot see. */
class CapacityHeadlineTest {
  private static final NodeId SEEN = NodeId.of("gpu-seen");
  private static final NodeId SILENT = NodeId.of("gpu-silent");

  @Test
  void gpusOfNodesThatDoNotReportAreUnknownWithTheTargetsNotAnswering() {
    List<GpuCapacity> gpus = new ArrayList<>();
    for (int g = 0; g < 8; g++) {
      gpus.add(new GpuCapacity(SEEN, g, true, 1.0));
      gpus.add(new GpuCapacity(SILENT, g, false, 0.0, FindingKind.TELEMETRY_STALE));
    }
    CapacityReport report = CapacityReport.of(Instant.parse("2026-12-01T00:00:00Z"), gpus);

    JsonObject json = ApiJson.capacity(report, 2);

    assertThat(json.getString("headline"))
        .isEqualTo(
            "8 of 16 GPUs serving at 100% = 50% effective; 8 GPUs unknown (2 targets not"
                + " answering)");
    assertThat(json.getInteger("gpusHealthy")).isEqualTo(8);
    assertThat(json.getInteger("gpusUnknown")).isEqualTo(8);
    assertThat(json.getInteger("gpusFailed")).as("unknown is not failed").isZero();
    assertThat(
            json.getJsonArray("gpus").stream()
                .map(JsonObject.class::cast)
                .filter(g -> g.getString("node").equals("gpu-silent"))
                .allMatch(
                    g -> g.getBoolean("unknown") && "unknown".equals(g.getString("lossCause"))))
        .isTrue();
  }

  @Test
  void targetsNotAnsweringAreNamedEvenBeforeAnyOfTheirGpusIsKnown() {
    CapacityReport empty = CapacityReport.of(Instant.parse("2026-12-01T00:00:00Z"), List.of());

    assertThat(ApiJson.headline(empty, 1))
        .isEqualTo("0 of 0 GPUs serving at 0% = 0% effective; 1 target not answering");
    assertThat(ApiJson.headline(empty, 0)).isEqualTo(empty.summary());
  }

  @org.junit.jupiter.api.Test
  void theTrendHasEachBookedHourWithItsEffectiveCapacity() {
    java.time.Instant h0 = java.time.Instant.parse("2026-12-01T10:00:00Z");
    java.util.List<io.bulwark.api.health.CapacityInterval> hours =
        java.util.List.of(
            new io.bulwark.api.health.CapacityInterval(
                h0.minus(java.time.Duration.ofDays(8)), h0, 3_600_000, 8, 8, java.util.Map.of()),
            new io.bulwark.api.health.CapacityInterval(
                h0,
                h0.plusSeconds(3600),
                3_600_000,
                8,
                6,
                java.util.Map.of(io.bulwark.api.health.LossCause.FAILURE, 2.0)),
            new io.bulwark.api.health.CapacityInterval(
                h0.plusSeconds(3600), h0.plusSeconds(7200), 0, 0, 0, java.util.Map.of()));
    io.vertx.core.json.JsonArray trend =
        CapacityResource.hourly(hours, h0.minus(java.time.Duration.ofDays(7)));
    org.assertj.core.api.Assertions.assertThat(trend.size()).isEqualTo(1);
    org.assertj.core.api.Assertions.assertThat(trend.getJsonObject(0).getDouble("effective"))
        .isEqualTo(0.75);
    org.assertj.core.api.Assertions.assertThat(trend.getJsonObject(0).getDouble("gpuHoursLost"))
        .isEqualTo(2.0);
  }
}
