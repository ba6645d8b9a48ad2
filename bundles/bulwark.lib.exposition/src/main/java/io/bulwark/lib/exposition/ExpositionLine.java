package io.bulwark.lib.exposition;

import java.util.Arrays;

/**
 * One sample line of a scraped page as {@link ExpositionParser} read it: metric name, labels, value
 * and optional timestamp. The parser reuses one instance for every line, so a {@link
 * ExpositionSink} must copy what it keeps before it returns. Label values are decoded (escapes
 * resolved) only when asked for.
 */
public final class ExpositionLine {
  private final RecentNames values;
  private byte[] page;
  private String name;
  private int lineNumber;
  private int labelCount;
  private String[] labelNames = new String[8];
  private int[] valueStarts = new int[8];
  private int[] valueEnds = new int[8];
  private boolean[] escaped = new boolean[8];
  private byte[] unescaped = new byte[64];
  private double value;
  private boolean hasTimestamp;
  private long timestampMillis;

  ExpositionLine(RecentNames values) {
    this.values = values;
  }

  void start(byte[] page, String name, int lineNumber) {
    this.page = page;
    this.name = name;
    this.lineNumber = lineNumber;
    this.labelCount = 0;
    this.hasTimestamp = false;
  }

  /** Records a label; returns false if the line already has a label of this name. */
  boolean addLabel(String labelName, int valueStart, int valueEnd, boolean hasEscapes) {
    int hash = labelName.hashCode();
    for (int i = 0; i < labelCount; i++) {
      String other = labelNames[i];
      if (other.hashCode() == hash && other.equals(labelName)) {
        return false;
      }
    }
    if (labelCount == labelNames.length) {
      int grown = labelCount * 2;
      labelNames = Arrays.copyOf(labelNames, grown);
      valueStarts = Arrays.copyOf(valueStarts, grown);
      valueEnds = Arrays.copyOf(valueEnds, grown);
      escaped = Arrays.copyOf(escaped, grown);
    }
    labelNames[labelCount] = labelName;
    valueStarts[labelCount] = valueStart;
    valueEnds[labelCount] = valueEnd;
    escaped[labelCount] = hasEscapes;
    labelCount++;
    return true;
  }

  void finish(double sampleValue, boolean withTimestamp, long timestamp) {
    this.value = sampleValue;
    this.hasTimestamp = withTimestamp;
    this.timestampMillis = timestamp;
  }

  /** Returns the metric name. */
  public String name() {
    return name;
  }

  /** Returns the number of the line in the page, 1 being the first. */
  public int lineNumber() {
    return lineNumber;
  }

  /** Returns the number of labels. */
  public int labelCount() {
    return labelCount;
  }

  /** Returns the name of label {@code i}. */
  public String labelName(int i) {
    return labelNames[i];
  }

  /** Returns the position of the label called {@code labelName}, or -1 if the line has none. */
  public int labelIndex(String labelName) {
    for (int i = 0; i < labelCount; i++) {
      if (labelNames[i].equals(labelName)) {
        return i;
      }
    }
    return -1;
  }

  /** Returns the value of label {@code i} with its escapes ({@code \\ \" \n}) resolved. */
  public String labelValue(int i) {
    int from = valueStarts[i];
    int to = valueEnds[i];
    if (!escaped[i]) {
      return values.get(i, page, from, to);
    }
    if (unescaped.length < to - from) {
      unescaped = new byte[Math.max(to - from, unescaped.length * 2)];
    }
    int n = 0;
    for (int p = from; p < to; p++) {
      byte c = page[p];
      if (c == '\\' && p + 1 < to) {
        byte next = page[++p];
        if (next == 'n') {
          unescaped[n++] = '\n';
        } else if (next == '\\' || next == '"') {
          unescaped[n++] = next;
        } else {
          unescaped[n++] = c;
          unescaped[n++] = next;
        }
      } else {
        unescaped[n++] = c;
      }
    }
    return values.get(i, unescaped, 0, n);
  }

  /** Returns the value of the label called {@code labelName}, or null if the line has none. */
  public String labelValue(String labelName) {
    int i = labelIndex(labelName);
    return i < 0 ? null : labelValue(i);
  }

  /**
   * Returns the value of label {@code i} read as a non-negative index of at most nine digits (a GPU
   * index), or -1 if it is not one.
   */
  public int labelValueAsIndex(int i) {
    int from = valueStarts[i];
    int to = valueEnds[i];
    if (from == to || to - from > 9) {
      return -1;
    }
    int index = 0;
    for (int p = from; p < to; p++) {
      byte c = page[p];
      if (c < '0' || c > '9') {
        return -1;
      }
      index = index * 10 + (c - '0');
    }
    return index;
  }

  /** Returns the sample value. */
  public double value() {
    return value;
  }

  /** Returns true if the line carries its own timestamp. */
  public boolean hasTimestamp() {
    return hasTimestamp;
  }

  /**
   * Returns the line's timestamp (epoch milliseconds); meaningful only if {@link #hasTimestamp()}.
   */
  public long timestampMillis() {
    return timestampMillis;
  }
}
