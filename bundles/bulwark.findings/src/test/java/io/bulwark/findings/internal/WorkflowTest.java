package io.bulwark.findings.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.MaintenanceWindow;
import io.bulwark.api.health.Severity;
import io.bulwark.store.internal.MapDbRecordStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's work on findings, on a real store: notes and maintenance windows survive a reopen;
 * what they hold back from notifications (a window on the node or one GPU, a snooze) and for how
 * long; the bounds; and the CSV export, which defuses text a spreadsheet would run.
 */
class WorkflowTest {
  @TempDir Path dir;

  private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void notesAndWindowsSurviveAReopenAndHoldBackWhatTheyCover() throws Exception {
    Finding gpu3 = finding("a", "dgx-a07", 3);
    Finding gpu5 = finding("b", "dgx-a07", 5);
    Finding other = finding("c", "dgx-a08", 3);
    String windowId;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Workflow w = new Workflow(store, clock);
      MaintenanceWindow window =
          w.start(new NodeId("dgx-a07"), 3, NOW.plus(Duration.ofHours(4)), "replace GPU 3", "ops1");
      windowId = window.id();
      w.change("c", "t", n -> n.snoozed(NOW.plusSeconds(3600), "ops2"));
      w.change(
          "a",
          "t",
          n ->
              n.acknowledged("ops1", NOW)
                  .with(new Note.Step(NOW, "acknowledged", "ops1", "on it")));
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Workflow w = new Workflow(store, clock);
      assertTrue(w.covers(gpu3, NOW), "the window's GPU");
      assertFalse(w.covers(gpu5, NOW), "another GPU of the node");
      assertTrue(w.covers(other, NOW), "snoozed");
      assertFalse(w.covers(other, NOW.plusSeconds(3601)), "the snooze ended");
      assertFalse(w.covers(gpu3, NOW.plus(Duration.ofHours(4))), "the window ended");
      assertEquals("ops1", w.note("a").acknowledgedBy());
      assertEquals(
          List.of("acknowledged"), w.note("a").steps().stream().map(Note.Step::event).toList());
      assertEquals(1, w.windows(NOW).size());
      w.end(windowId);
      assertFalse(w.covers(gpu3, NOW.plusSeconds(1)));
      assertTrue(w.windows(NOW.plusSeconds(1)).isEmpty());
      assertEquals(1, w.allWindows().size(), "an ended window is kept for the record");
    }
  }

  @Test
  void aWholeNodeWindowCoversEveryGpuAndWindowsAreBounded() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Workflow w = new Workflow(store, clock);
      w.start(new NodeId("dgx-a07"), -1, NOW.plusSeconds(60), "reboot", "ops1");
      assertTrue(w.covers(finding("x", "dgx-a07", 0), NOW));
      assertTrue(w.covers(finding("y", "dgx-a07", -1), NOW));
      assertThrows(
          IllegalArgumentException.class,
          () -> w.start(new NodeId("n"), -1, NOW.minusSeconds(1), "past", "ops1"));
      assertThrows(
          IllegalArgumentException.class,
          () -> w.start(new NodeId("n"), -1, NOW.plus(Duration.ofDays(91)), "too long", "ops1"));
    }
  }

  @Test
  void aNoteKeepsItsNewestSteps() {
    Note n = Note.empty("f");
    for (int i = 0; i < Note.MAX_STEPS + 10; i++) {
      n = n.with(new Note.Step(NOW.plusSeconds(i), "comment", "ops", "c" + i));
    }
    assertEquals(Note.MAX_STEPS, n.steps().size());
    assertEquals("c10", n.steps().get(0).text());
  }

  @Test
  void theCsvExportQuotesAndDefusesFormulas() {
    Finding f =
        new Finding(
            "id-1",
            "xid",
            new NodeId("dgx-a07"),
            3,
            Severity.CRITICAL,
            FindingState.OPEN,
            NOW,
            NOW,
            null,
            "=HYPERLINK(\"http://x\",\"click\")",
            Map.of(),
            "drain, then reset",
            0.0,
            1,
            "");
    Note note = Note.empty("id-1").assigned("ops1");
    String csv = FindingExport.csv(List.of(f), Map.of("id-1", note));
    String[] lines = csv.split("\r\n");
    assertEquals(String.join(",", FindingExport.COLUMNS), lines[0]);
    assertTrue(lines[1].contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\""), lines[1]);
    assertTrue(lines[1].contains("\"drain, then reset\""), lines[1]);
    assertTrue(lines[1].endsWith(",,ops1,"), lines[1]);
  }

  @Test
  void everyTextCellOfTheCsvExportThatStartsAFormulaIsPrefixedAndQuoted() {
    Finding f =
        new Finding(
            "id-2",
            "xid",
            new NodeId("dgx-a07"),
            -1,
            Severity.WARNING,
            FindingState.OPEN,
            NOW,
            NOW,
            null,
            "@SUM(1+1)",
            Map.of(),
            "-2+3+cmd|' /C calc'!A0",
            0.0,
            1,
            "");
    Note note = Note.empty("id-2").assigned("+ops1");
    String[] lines = FindingExport.csv(List.of(f), Map.of("id-2", note)).split("\r\n");
    assertTrue(lines[1].startsWith("id-2,xid,dgx-a07,-1,"), lines[1]);
    assertTrue(
        lines[1].contains(",\"'@SUM(1+1)\",\"'-2+3+cmd|' /C calc'!A0\",,\"'+ops1\","), lines[1]);
  }

  private static Finding finding(String id, String node, int gpu) {
    return new Finding(
        id,
        "xid",
        new NodeId(node),
        gpu,
        Severity.CRITICAL,
        FindingState.OPEN,
        NOW,
        NOW,
        null,
        "XID 79",
        Map.of(),
        "",
        0.0,
        1,
        "");
  }
}
