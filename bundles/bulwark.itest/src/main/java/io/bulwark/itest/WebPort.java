package io.bulwark.itest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Dictionary;
import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * Moves the web listener to a free port through Config Admin, as an admin would reconfigure it, and
 * waits until it answers there. Also proves that the web component follows a configuration change
 * without a restart.
 */
final class WebPort {
  private static volatile int port;

  private WebPort() {}

  static synchronized int configure(BundleContext context) throws Exception {
    if (port != 0) {
      return port;
    }
    int free;
    try (ServerSocket s = new ServerSocket(0)) {
      free = s.getLocalPort();
    }
    ServiceReference<ConfigurationAdmin> ref =
        context.getServiceReference(ConfigurationAdmin.class);
    ConfigurationAdmin cm = context.getService(ref);
    Configuration config = cm.getConfiguration("io.bulwark.web", "?");
    Dictionary<String, Object> props =
        config.getProperties() == null ? new Hashtable<>() : config.getProperties();
    props.put("httpsPort", free);
    props.put("bindAddress", "127.0.0.1");
    config.update(props);
    long deadline = System.currentTimeMillis() + 20_000;
    while (!answers(free)) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("the web listener did not move to port " + free);
      }
      Thread.sleep(100);
    }
    port = free;
    return free;
  }

  private static boolean answers(int p) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", p), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
