package io.bulwark.bench.ingest;

import io.bulwark.api.health.Detector;
import io.bulwark.testing.TypedConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every detector the class path offers, built as Service Component Runtime builds it without
 * configuration: the components that provide {@link Detector} are found from the {@code
 * OSGI-INF/*.xml} descriptors bnd writes, and each is made through its constructor that takes
 * configuration annotations, every one with its defaults. A detector added to a bundle joins the
 * benchmark without a change here.
 */
final class DetectorCatalog {
  private DetectorCatalog() {}

  /**
   * Returns every detector on the class path, sorted by class name.
   *
   * @throws IllegalStateException if the descriptors cannot be read or a detector cannot be built
   */
  static List<Detector> onClassPath() {
    TreeSet<String> classes = new TreeSet<>();
    try {
      Enumeration<URL> roots = DetectorCatalog.class.getClassLoader().getResources("OSGI-INF");
      while (roots.hasMoreElements()) {
        for (byte[] xml : descriptors(roots.nextElement())) {
          classes.addAll(detectorClasses(xml));
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot read the component descriptors: " + e, e);
    }
    List<Detector> detectors = new ArrayList<>();
    for (String name : classes) {
      try {
        detectors.add(build(Class.forName(name)));
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new IllegalStateException("cannot build detector " + name + ": " + e, e);
      }
    }
    return detectors;
  }

  private static List<byte[]> descriptors(URL root) throws IOException, URISyntaxException {
    List<byte[]> xmls = new ArrayList<>();
    if ("jar".equals(root.getProtocol())) {
      JarURLConnection connection = (JarURLConnection) root.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        for (JarEntry entry : jar.stream().toList()) {
          String name = entry.getName();
          if (name.startsWith("OSGI-INF/") && name.indexOf('/', 9) < 0 && name.endsWith(".xml")) {
            try (InputStream in = jar.getInputStream(entry)) {
              xmls.add(in.readAllBytes());
            }
          }
        }
      }
    } else if ("file".equals(root.getProtocol())) {
      try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".xml")).toList()) {
          xmls.add(Files.readAllBytes(file));
        }
      }
    }
    return xmls;
  }

  private static List<String> detectorClasses(byte[] xml) throws IOException {
    Document doc;
    try {
      doc =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(new ByteArrayInputStream(xml));
    } catch (Exception e) {
      throw new IOException("a component descriptor is not readable XML: " + e, e);
    }
    NodeList provides = doc.getElementsByTagName("provide");
    boolean detector = false;
    for (int i = 0; i < provides.getLength(); i++) {
      detector |=
          Detector.class.getName().equals(((Element) provides.item(i)).getAttribute("interface"));
    }
    NodeList implementation = doc.getElementsByTagName("implementation");
    if (!detector || implementation.getLength() != 1) {
      return List.of();
    }
    return List.of(((Element) implementation.item(0)).getAttribute("class"));
  }

  private static Detector build(Class<?> type) throws ReflectiveOperationException {
    for (Constructor<?> constructor : type.getConstructors()) {
      Class<?>[] parameters = constructor.getParameterTypes();
      boolean configsOnly = true;
      for (Class<?> parameter : parameters) {
        configsOnly &= parameter.isAnnotation();
      }
      if (configsOnly) {
        Object[] args = new Object[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
          args[i] = TypedConfig.defaults(parameters[i]);
        }
        return (Detector) constructor.newInstance(args);
      }
    }
    throw new IllegalStateException(
        "no public constructor that takes configuration annotations only");
  }
}
