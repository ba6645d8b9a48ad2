package io.bulwark.notify.syslog.internal;

import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ClientTls;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Sends syslog messages over one kept-open connection: TLS (RFC 5425) or plain TCP (RFC 6587), each
 * framed by octet counting ({@code MSG-LEN SP SYSLOG-MSG}). A connection the receiver closed is
 * noticed before the next message and opened again. Syslog has no acknowledgement, so a message
 * counts as delivered once written and flushed.
 */
final class StreamSender implements ChannelSender {
  static final int TIMEOUT_MILLIS = 10_000;

  private final String host;
  private final int port;
  private final ClientTls tls;
  private final SyslogMessage format;
  private final String channel;
  private Socket socket;
  private OutputStream out;

  StreamSender(String host, int port, ClientTls tls, SyslogMessage format, String channel) {
    this.host = host;
    this.port = port;
    this.tls = tls;
    this.format = format;
    this.channel = channel;
  }

  @Override
  public void send(List<Notification> batch) throws DeliveryException {
    String where = (tls == null ? "tcp://" : "tls://") + host + ":" + port;
    try {
      if (socket == null || peerClosed()) {
        close();
        connect();
      }
      for (Notification n : batch) {
        byte[] msg = format.encode(n);
        out.write((msg.length + " ").getBytes(StandardCharsets.US_ASCII));
        out.write(msg);
      }
      out.flush();
    } catch (IOException e) {
      close();
      throw new DeliveryException(
          "the syslog receiver " + where + " for channel " + channel + ": " + describe(e), e);
    }
  }

  private void connect() throws IOException {
    if (tls != null) {
      socket = tls.connect(host, port, TIMEOUT_MILLIS);
    } else {
      Socket s = new Socket();
      try {
        s.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
        s.setSoTimeout(TIMEOUT_MILLIS);
      } catch (IOException e) {
        s.close();
        throw e;
      }
      socket = s;
    }
    out = socket.getOutputStream();
  }

  /**
   * Returns true if the receiver closed the connection: it never sends anything itself, so a read
   * that ends (or a TLS close_notify) within a millisecond means it is gone, and writing would lose
   * the message in a dead connection.
   */
  private boolean peerClosed() {
    try {
      if (socket.isClosed() || socket.isInputShutdown()) {
        return true;
      }
      socket.setSoTimeout(1);
      try {
        return socket.getInputStream().read() < 0;
      } catch (java.net.SocketTimeoutException e) {
        return false;
      } finally {
        socket.setSoTimeout(TIMEOUT_MILLIS);
      }
    } catch (IOException e) {
      return true;
    }
  }

  static String describe(IOException e) {
    String m = e.getMessage();
    if (e instanceof java.net.ConnectException) {
      return "connection refused (" + m + "); is it running and listening there?";
    }
    if (e instanceof java.net.SocketTimeoutException) {
      return "no answer within " + TIMEOUT_MILLIS / 1000 + " s";
    }
    if (e instanceof java.net.UnknownHostException) {
      return "unknown host " + m;
    }
    if (e instanceof javax.net.ssl.SSLException) {
      return "TLS failed: " + m + " (check the CA certificate and the receiver's name)";
    }
    return m == null ? e.toString() : m;
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing
      }
    }
    socket = null;
    out = null;
  }
}
