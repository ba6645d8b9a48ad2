package io.bulwark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client's JSON reader and writer. */
class JsonTest {
  @Test
  void readsEveryKindOfValue() throws Exception {
    Object value =
        Json.parse(
            " {\"s\":\"a\\\"b\\\\c\\n\\u00e9\",\"n\":-12,\"d\":0.5e1,\"t\":true,\"f\":false,"
                + "\"z\":null,\"a\":[1,[],{}],\"big\":12345678901234567890} ");

    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("s", "a\"b\\c\né");
    expected.put("n", -12L);
    expected.put("d", 5.0);
    expected.put("t", true);
    expected.put("f", false);
    expected.put("z", null);
    expected.put("a", List.of(1L, List.of(), Map.of()));
    expected.put("big", 1.2345678901234567e19);
    assertThat(value).isEqualTo(expected);
  }

  @Test
  void writesWhatItReads() throws Exception {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("text", "line\none \"quoted\" \u0001");
    value.put("none", null);
    value.put("list", Arrays.asList(1L, 2.5, true));
    String json = Json.write(value);

    assertThat(json)
        .isEqualTo(
            "{\"text\":\"line\\none \\\"quoted\\\" \\u0001\",\"none\":null,\"list\":[1,2.5,true]}");
    assertThat(Json.parse(json)).isEqualTo(value);
  }

  @Test
  void refusesWhatIsNotJson() {
    for (String bad :
        new String[] {"", "{", "{\"a\":}", "[1,]", "{\"a\":1}x", "nul", "\"\u0001\"", "01x", "-"}) {
      assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(Json.SyntaxException.class);
    }
    assertThatThrownBy(() -> Json.parse("[".repeat(200) + "]".repeat(200)))
        .isInstanceOf(Json.SyntaxException.class)
        .hasMessageContaining("nested deeper");
  }
}
