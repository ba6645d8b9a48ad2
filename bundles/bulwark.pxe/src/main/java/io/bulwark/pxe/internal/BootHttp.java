package io.bulwark.pxe.internal;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.PathHandler;
import io.undertow.server.handlers.resource.PathResourceManager;
import io.undertow.server.handlers.resource.Resource;
import io.undertow.server.handlers.resource.ResourceChangeListener;
import io.undertow.server.handlers.resource.ResourceHandler;
import io.undertow.server.handlers.resource.ResourceManager;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import org.xnio.Options;

/**
 * HTTP boot on Undertow, on the provisioning address only: {@code /boot/...} serves boot files (the
 * boot root first, then the TFTP root, so that UEFI HTTP boot clients find {@code ipxe.efi}) with
 * range requests and zero-copy transfers ({@code sendfile} through {@code FileChannel.transferTo});
 * {@code /ipxe/<mac>.ipxe} serves the machine's iPXE script. GET and HEAD only; no directory
 * listings; links are not followed. Nothing here needs a login and nothing here is secret.
 */
final class BootHttp implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(BootHttp.class.getName());

  final LongAdder scripts = new LongAdder();
  final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();

  /** The last script purpose each MAC was given (what the tests and the UI show). */
  final Map<String, BootScripts.Purpose> lastScript = new ConcurrentHashMap<>();

  private final Undertow server;
  private final BootScripts bootScripts;

  BootHttp(InetSocketAddress bind, Path bootRoot, Path tftpRoot, BootScripts bootScripts)
      throws IOException {
    this.bootScripts = bootScripts;
    Files.createDirectories(bootRoot);
    ResourceManager files =
        new FirstOf(
            new PathResourceManager(bootRoot, 16 * 1024, true, false),
            new PathResourceManager(tftpRoot, 16 * 1024, true, false));
    ResourceHandler boot = new ResourceHandler(files).setDirectoryListingEnabled(false);
    boot.setCacheTime(60);
    PathHandler paths =
        new PathHandler(this::notFound)
            .addPrefixPath("/boot", boot)
            .addPrefixPath("/ipxe", this::script);
    HttpHandler root =
        exchange -> {
          exchange.addExchangeCompleteListener(
              (ex, next) -> {
                statuses.computeIfAbsent(ex.getStatusCode(), k -> new LongAdder()).increment();
                next.proceed();
              });
          if (!exchange.getRequestMethod().equals(Methods.GET)
              && !exchange.getRequestMethod().equals(Methods.HEAD)) {
            exchange.setStatusCode(StatusCodes.METHOD_NOT_ALLOWED);
            exchange.getResponseHeaders().put(Headers.ALLOW, "GET, HEAD");
            exchange.endExchange();
            return;
          }
          paths.handleRequest(exchange);
        };
    try {
      server =
          Undertow.builder()
              .addHttpListener(bind.getPort(), bind.getAddress().getHostAddress())
              .setIoThreads(2)
              .setWorkerThreads(16)
              .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 30_000)
              .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, 10_000)
              .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 0L)
              .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
              .setSocketOption(Options.WRITE_TIMEOUT, 120_000)
              .setServerOption(UndertowOptions.ALWAYS_SET_DATE, true)
              .setHandler(root)
              .build();
      server.start();
    } catch (RuntimeException e) {
      throw new IOException(
          "cannot serve HTTP boot on " + bind + ": " + e.getMessage() + " (is the port taken?)", e);
    }
  }

  int port() {
    return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
  }

  private void notFound(HttpServerExchange exchange) {
    exchange.setStatusCode(StatusCodes.NOT_FOUND);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange
        .getResponseSender()
        .send("not found: the provisioning plane serves /boot/ and /ipxe/\n");
  }

  private void script(HttpServerExchange exchange) {
    if (exchange.isInIoThread()) {
      exchange.dispatch(this::script);
      return;
    }
    String name = exchange.getRelativePath();
    if (name.startsWith("/")) {
      name = name.substring(1);
    }
    if (!name.endsWith(".ipxe")
        || !BootScripts.MAC.matcher(name.substring(0, name.length() - 5)).matches()) {
      notFound(exchange);
      return;
    }
    String hyphenated = name.substring(0, name.length() - 5);
    String script = bootScripts.script(hyphenated);
    lastScript.put(hyphenated.replace('-', ':'), bootScripts.purpose(hyphenated.replace('-', ':')));
    scripts.increment();
    LOG.info(
        () ->
            "HTTP boot: "
                + hyphenated.replace('-', ':')
                + " from "
                + exchange.getSourceAddress()
                + " fetched its iPXE script");
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    exchange.getResponseSender().send(script);
  }

  /** Looks a path up in each manager in turn. */
  private record FirstOf(ResourceManager... managers) implements ResourceManager {
    @Override
    public Resource getResource(String path) throws IOException {
      for (ResourceManager m : managers) {
        Resource r = m.getResource(path);
        if (r != null && !r.isDirectory()) {
          return r;
        }
      }
      return null;
    }

    @Override
    public boolean isResourceChangeListenerSupported() {
      return false;
    }

    @Override
    public void registerResourceChangeListener(ResourceChangeListener listener) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void removeResourceChangeListener(ResourceChangeListener listener) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() throws IOException {
      for (ResourceManager m : managers) {
        m.close();
      }
    }
  }

  @Override
  public void close() {
    server.stop();
  }
}
