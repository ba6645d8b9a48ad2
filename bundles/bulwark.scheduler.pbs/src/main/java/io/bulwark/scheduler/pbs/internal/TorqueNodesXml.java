package io.bulwark.scheduler.pbs.internal;

import io.bulwark.api.scheduler.SchedulerNode;
import java.io.IOException;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads what Torque's {@code pbsnodes -x [node]} prints: one line of XML, {@code
 * <Data><Node><name>…</name><state>…</state>…</Node>…</Data>}, with one child element per node
 * attribute that has a value ({@code state}, {@code properties}, {@code jobs}, {@code note}...).
 * Torque lists a node's jobs as {@code <cores>/<job id>} entries ({@code 0/12.head,1/12.head}, or
 * {@code 0-15/12.head} in later releases); each job id is listed once. A node's pools are its
 * properties, the words Torque matches a job's {@code -l nodes=…:property} against. The JDK's
 * parser reads the XML with secure processing on, no document type declaration allowed and no
 * external entity or DTD fetched.
 */
final class TorqueNodesXml {
  private TorqueNodesXml() {}

  /**
   * Reads one listing.
   *
   * @throws PbsOutputException if the text is not XML or not a {@code Data} element of nodes
   */
  static PbsListing parse(String text) throws PbsOutputException {
    Document document;
    try {
      DocumentBuilder builder = factory().newDocumentBuilder();
      builder.setErrorHandler(new DefaultHandler());
      document = builder.parse(new InputSource(new StringReader(text)));
    } catch (SAXException | IOException e) {
      throw new PbsOutputException(
          "it printed something that is not XML: "
              + PbsComment.oneLine(String.valueOf(e.getMessage())),
          e);
    } catch (ParserConfigurationException e) {
      throw new PbsOutputException("the appliance's XML parser cannot be set up securely", e);
    }
    Element data = document.getDocumentElement();
    if (!"Data".equals(data.getTagName())) {
      throw new PbsOutputException(
          "its XML is a <" + data.getTagName() + "> element, not pbsnodes' <Data>");
    }
    Map<String, SchedulerNode> nodes = new LinkedHashMap<>();
    for (Node child = data.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child instanceof Element element) {
        if (!"Node".equals(element.getTagName())) {
          throw new PbsOutputException(
              "its <Data> holds a <" + element.getTagName() + "> element, not only <Node>s");
        }
        SchedulerNode node = node(element);
        nodes.put(node.name(), node);
      }
    }
    return new PbsListing(nodes, Map.of());
  }

  private static SchedulerNode node(Element element) throws PbsOutputException {
    Map<String, String> attributes = new LinkedHashMap<>();
    for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child instanceof Element attribute) {
        attributes.put(attribute.getTagName(), attribute.getTextContent());
      }
    }
    String name = attributes.getOrDefault("name", "").trim();
    if (name.isEmpty()) {
      throw new PbsOutputException("it lists a <Node> without a <name>");
    }
    String state = attributes.getOrDefault("state", "").trim();
    List<String> jobs = jobs(attributes.getOrDefault("jobs", ""));
    Set<String> pools = new LinkedHashSet<>();
    for (String property : attributes.getOrDefault("properties", "").split(",")) {
      if (!property.isBlank()) {
        pools.add(property.trim());
      }
    }
    return new SchedulerNode(
        name,
        PbsNodeStates.of(state, jobs),
        state,
        attributes.getOrDefault("note", "").trim(),
        pools,
        jobs);
  }

  private static List<String> jobs(String entries) {
    Set<String> ids = new LinkedHashSet<>();
    for (String entry : entries.split(",")) {
      String id = entry.trim();
      int slash = id.indexOf('/');
      if (slash >= 0) {
        id = id.substring(slash + 1).trim();
      }
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    return List.copyOf(ids);
  }

  private static DocumentBuilderFactory factory() throws ParserConfigurationException {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
    factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    factory.setXIncludeAware(false);
    factory.setExpandEntityReferences(false);
    factory.setNamespaceAware(false);
    return factory;
  }
}
