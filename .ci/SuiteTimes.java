import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;

/**
 * Prints what the test suite of one build took: the number of tests executed, failed and skipped
 * over every module's surefire and failsafe reports, and the slowest test classes with their
 * seconds. Run by the build after the end-to-end tests (single-file source: {@code java
 * .ci/SuiteTimes.java ROOT [COUNT]}); reads only the reports under ROOT, writes nothing.
 */
public final class SuiteTimes {
  record ClassTime(String module, String name, double seconds, int tests) {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    List<ClassTime> classes = new ArrayList<>();
    int tests = 0;
    int failures = 0;
    int skipped = 0;
    var factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    for (Path report : reports(root)) {
      Element suite = factory.newDocumentBuilder().parse(report.toFile()).getDocumentElement();
      int n = integer(suite, "tests");
      tests += n;
      failures += integer(suite, "failures") + integer(suite, "errors");
      skipped += integer(suite, "skipped");
      String module = root.relativize(report.getParent().getParent().getParent()).toString();
      classes.add(
          new ClassTime(module, suite.getAttribute("name"), decimal(suite, "time"), n));
    }
    classes.sort(Comparator.comparingDouble(ClassTime::seconds).reversed());
    double total = classes.stream().mapToDouble(ClassTime::seconds).sum();
    System.out.printf(
        "Test suite: %d tests executed, %d failed, %d skipped, in %d classes (%.0f s of test"
            + " time)%n",
        tests, failures, skipped, classes.size(), total);
    System.out.printf("The %d slowest test classes:%n", Math.min(count, classes.size()));
    for (ClassTime c : classes.subList(0, Math.min(count, classes.size()))) {
      System.out.printf(
          "  %7.1f s  %-58s %3d tests  %s%n", c.seconds(), shortName(c.name()), c.tests(), c.module());
    }
  }

  /** Every surefire and failsafe XML report under {@code root}'s modules. */
  static List<Path> reports(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root, 6)) {
      return walk.filter(
              p -> {
                String dir = p.getParent() == null ? "" : p.getParent().getFileName().toString();
                String file = p.getFileName().toString();
                return (dir.equals("surefire-reports") || dir.equals("failsafe-reports"))
                    && file.startsWith("TEST-")
                    && file.endsWith(".xml")
                    && !p.toString().contains("node_modules");
              })
          .sorted()
          .toList();
    }
  }

  private static String shortName(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? name : name.substring(dot + 1);
  }

  private static int integer(Element e, String attribute) {
    String v = e.getAttribute(attribute);
    return v.isEmpty() ? 0 : Integer.parseInt(v.strip());
  }

  private static double decimal(Element e, String attribute) {
    String v = e.getAttribute(attribute).replace(",", "");
    return v.isEmpty() ? 0 : Double.parseDouble(v.strip());
  }
}
