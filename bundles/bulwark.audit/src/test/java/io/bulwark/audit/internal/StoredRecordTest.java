package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StoredRecordTest {
  private static final String HASH = "ab".repeat(32);

  @Test
  void awkwardTextRoundTripsToTheSameBytes() {
    String awkward = "quote\" back\\ nl\n tab\t nul\u0000 del\u007f ls\u2028 é 😀 lone\ud800!";
    StoredRecord r =
        StoredRecord.unsealed(
                7,
                Instant.parse("2026-03-04T05:06:07.123456Z"),
                new AuditEvent(
                    awkward, "::1", "a.b", awkward, AuditOutcome.FAILURE, Map.of(awkward, awkward)),
                HASH)
            .sealed(HASH, HASH);
    byte[] line = r.line().getBytes(StandardCharsets.UTF_8);

    StoredRecord back = StoredRecord.parse(line, line.length);

    assertThat(back).isEqualTo(r);
    assertThat(back.line()).isEqualTo(r.line());
    assertThat(r.line()).doesNotContain("\n").contains("\\u0000").contains("\\ud800");
    assertThat(back.toAuditRecord().event().actor()).isEqualTo(awkward);
  }

  @Test
  void bodyHasTheFieldsInFixedOrder() {
    StoredRecord r =
        StoredRecord.unsealed(
            1,
            Instant.parse("2026-01-01T00:00:00Z"),
            new AuditEvent(
                "alice",
                "local",
                "session.login",
                null,
                AuditOutcome.SUCCESS,
                Map.of("z", "1", "a", "2")),
            StoredRecord.GENESIS);

    assertThat(r.body())
        .isEqualTo(
            "{\"seq\":1,\"at\":\"2026-01-01T00:00:00Z\",\"actor\":\"alice\",\"source\":\"local\","
                + "\"action\":\"session.login\",\"target\":\"\",\"outcome\":\"SUCCESS\","
                + "\"details\":{\"a\":\"2\",\"z\":\"1\"},\"prev\":\""
                + StoredRecord.GENESIS
                + "\"}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "{}",
        "not json",
        "{\"seq\":1}",
        "{\"seq\":0,\"at\":\"2026-01-01T00:00:00Z\"}",
        "{\"at\":\"x\",\"seq\":1}",
        "{\"seq\":99999999999999999999}",
      })
  void malformedLinesAreReportedNotGuessed(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> StoredRecord.parse(bytes, bytes.length))
        .isInstanceOf(MalformedRecordException.class);
  }

  @Test
  void invalidUtf8IsMalformed() {
    byte[] bytes = {'{', (byte) 0xc3, '}'};
    assertThatThrownBy(() -> StoredRecord.parse(bytes, bytes.length))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessage("not UTF-8 text");
  }

  @Test
  void csvFieldsFollowRfc4180() {
    assertThat(CsvRow.field("plain")).isEqualTo("plain");
    assertThat(CsvRow.field("a,b")).isEqualTo("\"a,b\"");
    assertThat(CsvRow.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(CsvRow.field("two\r\nlines")).isEqualTo("\"two\r\nlines\"");
    assertThat(CsvRow.field("=1+1")).isEqualTo("\"'=1+1\"");
    assertThat(CsvRow.field("@SUM(1+1)")).isEqualTo("\"'@SUM(1+1)\"");
    assertThat(CsvRow.field("a;=1+1")).isEqualTo("\"a;=1+1\"");
    assertThat(new String(CsvRow.row("a", "", "b"), StandardCharsets.UTF_8)).isEqualTo("a,,b\r\n");
  }
}
