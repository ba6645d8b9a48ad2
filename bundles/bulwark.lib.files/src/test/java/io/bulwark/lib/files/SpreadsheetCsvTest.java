package io.bulwark.lib.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a spreadsheet would run as a formula comes out as text; everything else as RFC 4180. */
class SpreadsheetCsvTest {

  @Test
  void aCellThatStartsAFormulaIsPrefixedWithAnApostropheAndQuoted() {
    assertThat(SpreadsheetCsv.cell("=HYPERLINK(\"http://evil.example/\",\"click\")"))
        .isEqualTo("\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"click\"\")\"");
    assertThat(SpreadsheetCsv.cell("+1+1")).isEqualTo("\"'+1+1\"");
    assertThat(SpreadsheetCsv.cell("-2+3+cmd|' /C calc'!A0"))
        .isEqualTo("\"'-2+3+cmd|' /C calc'!A0\"");
    assertThat(SpreadsheetCsv.cell("@SUM(1+1)")).isEqualTo("\"'@SUM(1+1)\"");
    assertThat(SpreadsheetCsv.cell("\t=1+1")).isEqualTo("\"'\t=1+1\"");
    assertThat(SpreadsheetCsv.cell("\r=1+1")).isEqualTo("\"'\r=1+1\"");
    assertThat(SpreadsheetCsv.cell("-1")).isEqualTo("\"'-1\"");
  }

  @Test
  void aCellThatCouldStartAnotherCellIsQuoted() {
    assertThat(SpreadsheetCsv.cell("plain")).isEqualTo("plain");
    assertThat(SpreadsheetCsv.cell("a,=1+1")).isEqualTo("\"a,=1+1\"");
    assertThat(SpreadsheetCsv.cell("a;=1+1")).isEqualTo("\"a;=1+1\"");
    assertThat(SpreadsheetCsv.cell("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(SpreadsheetCsv.cell("two\r\nlines")).isEqualTo("\"two\r\nlines\"");
    assertThat(SpreadsheetCsv.cell("")).isEmpty();
    assertThat(SpreadsheetCsv.cell(null)).isEmpty();
  }

  @Test
  void aLineKeepsWholeNumbersAsNumbersAndEndsWithCrLf() {
    assertThat(SpreadsheetCsv.line(Arrays.asList(-1, 42L, "-1", null, "=x", "")))
        .isEqualTo("-1,42,\"'-1\",,\"'=x\",\r\n");
    assertThat(SpreadsheetCsv.line(List.of())).isEqualTo("\r\n");
  }
}
