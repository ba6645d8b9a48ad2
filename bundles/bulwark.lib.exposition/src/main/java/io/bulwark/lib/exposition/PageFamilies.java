package io.bulwark.lib.exposition;

import java.util.HashMap;
import java.util.Map;

/**
 * The rules of the text format that span lines, checked as Prometheus' own parser (expfmt's {@code
 * TextParser}) checks them, for {@link ExpositionParser}: a metric family has at most one {@code #
 * HELP} and one {@code # TYPE} line, and no {@code # TYPE} after its samples (a sample without one
 * makes the family untyped); the samples of a summary carry a {@code quantile} label that is a
 * number, those of a histogram an {@code le} label that is a number, and a histogram's buckets and
 * count are not negative. A sample named {@code x_sum} or {@code x_count} belongs to the summary or
 * histogram {@code x}, and {@code x_bucket} to the histogram {@code x}, when {@code x} was declared
 * so; otherwise it is a family of its own. Families need not be contiguous, as in expfmt.
 *
 * <p>Checked once per name change: a dcgm-exporter page writes each family's samples together, so a
 * steady page costs one comparison per sample. Families are remembered across pages and reset by a
 * page stamp, so a steady page allocates nothing. Not thread-safe: one per parser.
 */
final class PageFamilies {
  private static final int MAX_REMEMBERED = 16_384;

  private static final int PLAIN = 0;
  private static final int SUM = 1;
  private static final int COUNT = 2;
  private static final int BUCKET = 3;

  private final Map<String, Family> families = new HashMap<>();
  private int page;
  private String lastName;
  private Family lastFamily;
  private int lastRole;

  /** Starts a page. */
  void begin() {
    page++;
    lastName = null;
    lastFamily = null;
    if (families.size() > MAX_REMEMBERED) {
      families.clear();
    }
  }

  /**
   * Takes a {@code # HELP} ({@code type} null) or {@code # TYPE} line of {@code name}; returns why
   * the page is malformed, or null.
   */
  String declare(String name, String type) {
    Family family = resolve(name);
    if (family == null) {
      family = create(name);
    }
    lastName = null;
    if (type == null) {
      if (family.help) {
        return "second HELP line for metric name \"" + family.name + "\"";
      }
      family.help = true;
      return null;
    }
    if (family.type != null) {
      return "second TYPE line for metric name \""
          + family.name
          + "\", or TYPE reported after samples";
    }
    family.type = type;
    return null;
  }

  /**
   * Takes a sample of {@code name} with {@code value}; {@code line} is the line as read (its labels
   * are checked), or null for a line that repeats the previous page's (its labels were checked
   * then). Returns why the page is malformed, or null.
   */
  String sample(String name, ExpositionLine line, double value, ValueText numbers) {
    Family family;
    int role;
    if (name == lastName) {
      family = lastFamily;
      role = lastRole;
    } else {
      family = get(name);
      role = PLAIN;
      if (family == null || family.type == null) {
        Family base = null;
        if (name.endsWith("_sum")) {
          base = get(name.substring(0, name.length() - 4));
          role = SUM;
        } else if (name.endsWith("_count")) {
          base = get(name.substring(0, name.length() - 6));
          role = COUNT;
        } else if (name.endsWith("_bucket")) {
          base = get(name.substring(0, name.length() - 7));
          role = base != null && isHistogram(base.type) ? BUCKET : PLAIN;
        }
        if (base != null
            && (role == BUCKET
                || (role != PLAIN && ("summary".equals(base.type) || isHistogram(base.type))))) {
          family = base;
        } else {
          role = PLAIN;
          if (family == null) {
            family = create(name);
          }
        }
      }
      if (family.type == null) {
        family.type = "untyped";
      }
      lastName = name;
      lastFamily = family;
      lastRole = role;
    }
    String type = family.type;
    if ("summary".equals(type)) {
      if (role == PLAIN && line != null && !labelIsNumber(line, "quantile", numbers)) {
        return "expected float as value for 'quantile' label of summary \"" + family.name + "\"";
      }
    } else if (isHistogram(type)) {
      if (role == BUCKET || role == PLAIN) {
        if (line != null && !labelIsNumber(line, "le", numbers)) {
          return "expected float as value for 'le' label of histogram \"" + family.name + "\"";
        }
        if (value < 0) {
          return "negative bucket population for histogram \"" + family.name + "\"";
        }
      } else if (role == COUNT && value < 0) {
        return "negative count for histogram \"" + family.name + "\"";
      }
    }
    return null;
  }

  private static boolean isHistogram(String type) {
    return "histogram".equals(type) || "gaugehistogram".equals(type);
  }

  /** Returns true if the line has no label {@code label}, or one whose value is a number. */
  private static boolean labelIsNumber(ExpositionLine line, String label, ValueText numbers) {
    int i = line.labelIndex(label);
    if (i < 0) {
      return true;
    }
    byte[] text = line.labelValue(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return numbers.readFloat(text, 0, text.length);
  }

  /** Returns the family {@code name} as this page declared or sampled it, or null. */
  private Family get(String name) {
    Family family = families.get(name);
    return family != null && family.page == page ? family : null;
  }

  /**
   * Returns the family a HELP or TYPE line of {@code name} is about: {@code name}'s own, else the
   * summary or histogram it is a {@code _sum}, {@code _count} or {@code _bucket} of.
   */
  private Family resolve(String name) {
    Family family = get(name);
    if (family != null) {
      return family;
    }
    for (String suffix : new String[] {"_sum", "_count", "_bucket"}) {
      if (name.endsWith(suffix)) {
        Family base = get(name.substring(0, name.length() - suffix.length()));
        if (base != null
            && (isHistogram(base.type)
                || ("summary".equals(base.type) && !suffix.equals("_bucket")))) {
          return base;
        }
      }
    }
    return null;
  }

  private Family create(String name) {
    Family family = families.computeIfAbsent(name, Family::new);
    family.page = page;
    family.help = false;
    family.type = null;
    return family;
  }

  /** What a page said of one metric family. */
  private static final class Family {
    final String name;
    int page;
    boolean help;
    String type;

    Family(String name) {
      this.name = name;
    }
  }
}
