package io.bulwark.audit.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.util.TreeMap;

/**
 * Reads an audit record with Jackson's streaming parser, strictly: the fields must come in the
 * expected order with values of the expected type, a detail may not appear twice, and nothing may
 * follow the record, so that anything else is reported as a malformed record rather than guessed
 * at. Whether a line is in the canonical form byte for byte is checked by the chain verifier, which
 * writes the record again. Used when the log is opened, searched, verified and exported.
 */
final class JsonCursor implements AutoCloseable {
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
          .build();

  private final JsonParser parser;

  JsonCursor(String text) {
    try {
      this.parser = JSON.createParser(text);
    } catch (IOException e) {
      throw new MalformedRecordException("cannot be read: " + e.getMessage());
    }
  }

  /** Reads the start of the record. */
  void start() {
    expect(JsonToken.START_OBJECT, "the start of an object");
  }

  /** Reads the end of the record, after which there must be nothing. */
  void end() {
    expect(JsonToken.END_OBJECT, "the end of the record");
    if (next() != null) {
      throw fail("unexpected text after the record");
    }
  }

  /** Reads the name of the next field, which must be {@code name}. */
  void field(String name) {
    expect(JsonToken.FIELD_NAME, "field \"" + name + "\"");
    String found = text();
    if (!found.equals(name)) {
      throw fail("expected field \"" + name + "\" but found \"" + found + "\"");
    }
  }

  long number() {
    expect(JsonToken.VALUE_NUMBER_INT, "a whole number");
    try {
      return parser.getLongValue();
    } catch (IOException e) {
      throw fail("number out of range");
    }
  }

  String string() {
    expect(JsonToken.VALUE_STRING, "a string");
    return text();
  }

  /** Reads an object whose values are all strings. */
  TreeMap<String, String> strings() {
    TreeMap<String, String> values = new TreeMap<>();
    expect(JsonToken.START_OBJECT, "an object of strings");
    for (JsonToken t = next(); t != JsonToken.END_OBJECT; t = next()) {
      if (t != JsonToken.FIELD_NAME) {
        throw fail("expected a detail's name");
      }
      String key = text();
      values.put(key, string());
    }
    return values;
  }

  @Override
  public void close() {
    try {
      parser.close();
    } catch (IOException e) {
      // A parser over a string holds nothing to release.
    }
  }

  private void expect(JsonToken token, String what) {
    if (next() != token) {
      throw fail("expected " + what);
    }
  }

  private JsonToken next() {
    try {
      return parser.nextToken();
    } catch (JsonProcessingException e) {
      throw new MalformedRecordException(e.getOriginalMessage() + at());
    } catch (IOException e) {
      throw new MalformedRecordException("cannot be read: " + e.getMessage());
    }
  }

  private String text() {
    try {
      return parser.getText();
    } catch (IOException e) {
      throw fail("cannot be read");
    }
  }

  private MalformedRecordException fail(String what) {
    return new MalformedRecordException(what + at());
  }

  private String at() {
    return " at column " + parser.currentLocation().getColumnNr();
  }
}
