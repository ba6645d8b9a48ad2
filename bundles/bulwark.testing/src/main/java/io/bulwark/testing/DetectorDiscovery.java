package io.bulwark.testing;

import io.bulwark.api.health.Detector;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Finds every Declarative Services component on the class path that provides {@link Detector} (from
 * the {@code OSGI-INF/*.xml} descriptors bnd writes) and builds it as Service Component Runtime
 * would without configuration: through its constructor that takes configuration annotations, each
 * with its defaults, or its no-argument constructor. The scenario suite and the ingest benchmark
 * use it so that a detector added to the bundle takes part without a change there.
 */
public final class DetectorDiscovery {
  private DetectorDiscovery() {}

  /** What was found: the detectors built, and the components that could not be built, and why. */
  public record Found(List<Detector> detectors, List<String> skipped) {}

  public static Found onClassPath() {
    TreeSet<String> classes = new TreeSet<>();
    try {
      Enumeration<URL> roots = DetectorDiscovery.class.getClassLoader().getResources("OSGI-INF");
      while (roots.hasMoreElements()) {
        for (byte[] xml : descriptors(roots.nextElement())) {
          classes.addAll(detectorClasses(xml));
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot read the component descriptors", e);
    }
    List<Detector> detectors = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (String name : classes) {
      try {
        detectors.add(build(Class.forName(name)));
      } catch (ReflectiveOperationException | RuntimeException e) {
        skipped.add(name + ": " + e);
      }
    }
    return new Found(detectors, skipped);
  }

  private static List<byte[]> descriptors(URL root) throws IOException, URISyntaxException {
    List<byte[]> xmls = new ArrayList<>();
    if ("jar".equals(root.getProtocol())) {
      JarURLConnection connection = (JarURLConnection) root.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        var entries = jar.entries();
        while (entries.hasMoreElements()) {
          var entry = entries.nextElement();
          String n = entry.getName();
          if (n.startsWith("OSGI-INF/") && n.indexOf('/', 9) < 0 && n.endsWith(".xml")) {
            try (InputStream in = jar.getInputStream(entry)) {
              xmls.add(in.readAllBytes());
            }
          }
        }
      }
    } else if ("file".equals(root.getProtocol())) {
      try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
        for (Path p : files.filter(f -> f.toString().endsWith(".xml")).toList()) {
          xmls.add(Files.readAllBytes(p));
        }
      }
    }
    return xmls;
  }

  private static List<String> detectorClasses(byte[] xml) {
    List<String> classes = new ArrayList<>();
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(false);
      Document doc = factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(xml));
      NodeList provides = doc.getElementsByTagName("provide");
      boolean detector = false;
      for (int i = 0; i < provides.getLength(); i++) {
        if (Detector.class
            .getName()
            .equals(((Element) provides.item(i)).getAttribute("interface"))) {
          detector = true;
        }
      }
      NodeList impl = doc.getElementsByTagName("implementation");
      if (detector && impl.getLength() == 1) {
        classes.add(((Element) impl.item(0)).getAttribute("class"));
      }
    } catch (Exception e) {
      return classes;
    }
    return classes;
  }

  private static Detector build(Class<?> type)
      throws InstantiationException, IllegalAccessException, InvocationTargetException {
    for (Constructor<?> c : type.getConstructors()) {
      Class<?>[] params = c.getParameterTypes();
      boolean configsOnly = true;
      for (Class<?> p : params) {
        configsOnly &= p.isAnnotation();
      }
      if (configsOnly) {
        Object[] args = new Object[params.length];
        for (int i = 0; i < params.length; i++) {
          args[i] = TypedConfig.defaults(params[i]);
        }
        return (Detector) c.newInstance(args);
      }
    }
    throw new IllegalStateException(
        "no public constructor that takes configuration annotations only");
  }
}
