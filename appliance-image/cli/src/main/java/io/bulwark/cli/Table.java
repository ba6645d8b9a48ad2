package io.bulwark.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table for the terminal: a header and rows of text in columns as wide as their widest cell, two
 * spaces apart; the last column is not padded, so a long summary there only wraps.
 */
final class Table {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  /** Starts a table with these column headers. */
  Table(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  /** Adds a row: one cell per column, absent cells empty. */
  Table row(String... cells) {
    String[] row = Arrays.copyOf(cells, columns);
    for (int i = 0; i < columns; i++) {
      row[i] = Text.clean(row[i]);
    }
    rows.add(row);
    return this;
  }

  /** Returns how many rows there are, the header not counted. */
  int size() {
    return rows.size() - 1;
  }

  /** Prints the table. */
  void print(PrintStream out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(row[i]);
        if (i < columns - 1) {
          line.append(" ".repeat(widths[i] - row[i].length() + 2));
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
