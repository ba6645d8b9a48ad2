package io.bulwark.updates.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.osgi.framework.Version;
import org.osgi.resource.Capability;
import org.osgi.resource.Requirement;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The OSGi repository index (R5, {@code http://www.osgi.org/xmlns/repository/v1.0.0}, OSGi
 * Compendium 132.5) of the bundles of a package or of the offline repository: each bundle's
 * capabilities and requirements and its {@code osgi.content} capability (SHA-256, URL relative to
 * the index, size). Read back only for the identity and content of each resource, which must match
 * the bundles beside it.
 */
final class RepositoryIndex {
  static final String NAMESPACE = "http://www.osgi.org/xmlns/repository/v1.0.0";
  static final int MAX_BYTES = 8 << 20;

  /** One bundle of the index. */
  record Entry(String url, BundleResource resource, String sha256, long size) {}

  /** What the index says of one resource. */
  record Listed(String symbolicName, Version version, String url, String sha256, long size) {}

  private RepositoryIndex() {}

  /** Writes the index of {@code entries}. */
  static byte[] write(String name, long increment, List<Entry> entries) {
    StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append("<repository xmlns=\"").append(NAMESPACE).append("\" name=\"").append(esc(name));
    x.append("\" increment=\"").append(increment).append("\">\n");
    for (Entry e : entries) {
      x.append("  <resource>\n");
      for (Capability c : e.resource().getCapabilities(null)) {
        element(x, "capability", c.getNamespace(), c.getDirectives(), c.getAttributes());
      }
      element(
          x,
          "capability",
          "osgi.content",
          Map.of(),
          Map.of(
              "osgi.content", e.sha256(),
              "url", e.url(),
              "size", e.size(),
              "mime", "application/vnd.osgi.bundle"));
      for (Requirement r : e.resource().getRequirements(null)) {
        element(x, "requirement", r.getNamespace(), r.getDirectives(), r.getAttributes());
      }
      x.append("  </resource>\n");
    }
    x.append("</repository>\n");
    return x.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void element(
      StringBuilder x,
      String tag,
      String namespace,
      Map<String, String> directives,
      Map<String, Object> attributes) {
    x.append("    <").append(tag).append(" namespace=\"").append(esc(namespace)).append("\">\n");
    for (Map.Entry<String, Object> a : new java.util.TreeMap<>(attributes).entrySet()) {
      Object v = a.getValue();
      String type =
          v instanceof Version
              ? "Version"
              : v instanceof Long || v instanceof Integer
                  ? "Long"
                  : v instanceof Double ? "Double" : v instanceof List<?> ? "List<String>" : null;
      String value =
          v instanceof List<?> l
              ? String.join(",", l.stream().map(String::valueOf).toList())
              : String.valueOf(v);
      x.append("      <attribute name=\"").append(esc(a.getKey())).append('"');
      if (type != null) {
        x.append(" type=\"").append(esc(type)).append('"');
      }
      x.append(" value=\"").append(esc(value)).append("\"/>\n");
    }
    for (Map.Entry<String, String> d : new java.util.TreeMap<>(directives).entrySet()) {
      x.append("      <directive name=\"").append(esc(d.getKey())).append("\" value=\"");
      x.append(esc(d.getValue())).append("\"/>\n");
    }
    x.append("    </").append(tag).append(">\n");
  }

  private static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * Reads the identity and content of every resource of an index; no DTD, no external entity.
   *
   * @throws IllegalArgumentException if it is not an R5 index
   */
  static List<Listed> read(byte[] xml) throws IOException {
    if (xml.length > MAX_BYTES) {
      throw new IllegalArgumentException("index.xml is over " + MAX_BYTES + " bytes");
    }
    Document doc;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(null);
      doc = b.parse(new ByteArrayInputStream(xml));
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("no XML parser", e);
    } catch (SAXException e) {
      throw new IllegalArgumentException("index.xml is not well-formed XML: " + e.getMessage());
    }
    Element root = doc.getDocumentElement();
    if (!"repository".equals(root.getLocalName()) || !NAMESPACE.equals(root.getNamespaceURI())) {
      throw new IllegalArgumentException("index.xml is not an OSGi repository index (R5)");
    }
    List<Listed> out = new ArrayList<>();
    NodeList resources = root.getElementsByTagNameNS(NAMESPACE, "resource");
    for (int i = 0; i < resources.getLength(); i++) {
      Element r = (Element) resources.item(i);
      String bsn = null;
      Version version = null;
      String url = null;
      String sha = null;
      long size = -1;
      NodeList caps = r.getElementsByTagNameNS(NAMESPACE, "capability");
      for (int j = 0; j < caps.getLength(); j++) {
        Element c = (Element) caps.item(j);
        String ns = c.getAttribute("namespace");
        NodeList attrs = c.getElementsByTagNameNS(NAMESPACE, "attribute");
        for (int k = 0; k < attrs.getLength(); k++) {
          Element a = (Element) attrs.item(k);
          String n = a.getAttribute("name");
          String v = a.getAttribute("value");
          if (ns.equals(BundleResource.IDENTITY) && n.equals(BundleResource.IDENTITY)) {
            bsn = v;
          } else if (ns.equals(BundleResource.IDENTITY) && n.equals("version")) {
            version = Version.parseVersion(v);
          } else if (ns.equals("osgi.content") && n.equals("osgi.content")) {
            sha = v;
          } else if (ns.equals("osgi.content") && n.equals("url")) {
            url = v;
          } else if (ns.equals("osgi.content") && n.equals("size")) {
            try {
              size = Long.parseLong(v);
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("index.xml gives the size '" + v + "'");
            }
          }
        }
      }
      if (bsn == null || version == null || url == null || sha == null) {
        throw new IllegalArgumentException(
            "index.xml has a resource without its identity, version or content");
      }
      out.add(new Listed(bsn, version, url, sha, size));
    }
    return out;
  }
}
