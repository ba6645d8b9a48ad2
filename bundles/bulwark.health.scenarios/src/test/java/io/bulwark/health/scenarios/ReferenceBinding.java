package io.bulwark.health.scenarios;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Hands a service to a component the way Service Component Runtime does: when the component's
 * descriptor ({@code OSGI-INF/<class>.xml}, as bnd writes it) declares a reference to the service's
 * interface, the bind method it names is called, or the field it names is set. The replay uses it
 * to give a scenario's job map to the detectors that take one, so that a detector that starts to
 * take it needs no change here.
 */
final class ReferenceBinding {
  private ReferenceBinding() {}

  /**
   * Binds {@code service} to {@code component} if its descriptor declares a reference to {@code
   * type}.
   *
   * @return true if it was bound
   * @throws IllegalStateException if the descriptor names a bind method or field the class lacks
   */
  static <S> boolean bind(Object component, Class<S> type, S service) {
    Class<?> c = component.getClass();
    URL descriptor = c.getClassLoader().getResource("OSGI-INF/" + c.getName() + ".xml");
    if (descriptor == null) {
      return false;
    }
    boolean bound = false;
    try (InputStream in = descriptor.openStream()) {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList references = doc.getElementsByTagName("reference");
      for (int i = 0; i < references.getLength(); i++) {
        Element r = (Element) references.item(i);
        if (!type.getName().equals(r.getAttribute("interface"))) {
          continue;
        }
        if (!r.getAttribute("bind").isEmpty()) {
          Method m = c.getDeclaredMethod(r.getAttribute("bind"), type);
          m.setAccessible(true);
          m.invoke(component, service);
          bound = true;
        } else if (!r.getAttribute("field").isEmpty()) {
          Field f = c.getDeclaredField(r.getAttribute("field"));
          f.setAccessible(true);
          f.set(component, service);
          bound = true;
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot bind " + type.getName() + " to " + c.getName() + ": " + e, e);
    }
    return bound;
  }
}
