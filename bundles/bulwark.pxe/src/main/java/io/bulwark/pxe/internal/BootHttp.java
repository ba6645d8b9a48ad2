package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPlanner;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.provisioning.BootReport;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.xnio.Options;

/**
 * HTTP boot on Undertow, on the provisioning address only: {@code /boot/...} serves boot files (the
 * boot root first, then the TFTP root, so that UEFI HTTP boot clients find {@code ipxe.efi}) with
 * range requests and zero-copy transfers ({@code sendfile} through {@code FileChannel.transferTo});
 * {@code /ipxe/<mac>.ipxe} serves the machine's iPXE script. GET and HEAD only; no directory
 * listings; links are not followed. Nothing here needs a login and nothing here is secret. What
 * anyone can make it keep or log is bounded: the tokens of scripts ({@link BootTokens}, {@link
 * BootScripts}), and one warning per client address and minute for its scripts without a token and
 * its refused reports ({@link RepeatedWarnings}).
 */
final class BootHttp implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(BootHttp.class.getName());

  static final int MAX_REPORT = 1 << 20;

  final LongAdder scripts = new LongAdder();
  final LongAdder reports = new LongAdder();
  final LongAdder refusedReports = new LongAdder();
  final LongAdder logLines = new LongAdder();
  final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();

  static final int MAX_LAST_SCRIPTS = 4_096;

  /**
   * The last script purpose each MAC was given (what the tests show), for the {@value
   * #MAX_LAST_SCRIPTS} MACs that asked last.
   */
  final Map<String, BootPurpose> lastScript =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, BootPurpose> eldest) {
              return size() > MAX_LAST_SCRIPTS;
            }
          });

  private final Undertow server;
  private org.xnio.XnioWorker worker;
  private final BootScripts bootScripts;
  private final BootTokens tokens;
  private final Supplier<BootPlanner> planner;
  private final RepeatedWarnings warnings;

  BootHttp(
      InetSocketAddress bind,
      Path bootRoot,
      Path tftpRoot,
      BootScripts bootScripts,
      BootTokens tokens,
      Supplier<BootPlanner> planner)
      throws IOException {
    this.bootScripts = bootScripts;
    this.tokens = tokens;
    this.planner = planner;
    this.warnings = new RepeatedWarnings(LOG, tokens.clock());
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
            .addPrefixPath("/ipxe", this::script)
            .addPrefixPath("/report", this::report)
            .addExactPath("/log", this::log)
            .addPrefixPath("/metadata", this::metadata);
    HttpHandler root =
        exchange -> {
          exchange.addExchangeCompleteListener(
              (ex, next) -> {
                statuses.computeIfAbsent(ex.getStatusCode(), k -> new LongAdder()).increment();
                next.proceed();
              });
          boolean report =
              exchange.getRequestPath().startsWith("/report/")
                  || exchange.getRequestPath().equals("/log");
          boolean allowed =
              report
                  ? exchange.getRequestMethod().equals(Methods.POST)
                  : exchange.getRequestMethod().equals(Methods.GET)
                      || exchange.getRequestMethod().equals(Methods.HEAD);
          if (!allowed) {
            exchange.setStatusCode(StatusCodes.METHOD_NOT_ALLOWED);
            exchange.getResponseHeaders().put(Headers.ALLOW, report ? "POST" : "GET, HEAD");
            exchange.endExchange();
            return;
          }
          paths.handleRequest(exchange);
        };
    try {
      server =
          Undertow.builder()
              .addHttpListener(bind.getPort(), bind.getAddress().getHostAddress())
              // XNIO's NIO provider made directly: its service-loader lookup depends on the class
              // loader it is asked from, which under OSGi is not always the bundle's.
              .setWorker(
                  worker =
                      new org.xnio.nio.NioXnioProvider()
                          .getInstance()
                          .createWorker(
                              org.xnio.OptionMap.builder()
                                  .set(org.xnio.Options.WORKER_IO_THREADS, 2)
                                  .set(org.xnio.Options.WORKER_TASK_CORE_THREADS, 16)
                                  .set(org.xnio.Options.WORKER_TASK_MAX_THREADS, 16)
                                  .set(org.xnio.Options.WORKER_NAME, "bulwark-boot-http")
                                  .getMap()))
              .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 30_000)
              .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, 10_000)
              .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, (long) MAX_REPORT)
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
        .send("not found: the provisioning plane serves /boot/, /ipxe/, /report/ and /metadata/\n");
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
    String mac = hyphenated.replace('-', ':');
    String client = exchange.getSourceAddress().getAddress().getHostAddress();
    BootScripts.Script script = bootScripts.script(hyphenated, client);
    scripts.increment();
    if (script.refused() != null) {
      warnings.warn(
          "script " + client,
          () ->
              "HTTP boot: the iPXE script of "
                  + mac
                  + " carries no boot token: "
                  + script.refused()
                  + "; the machine boots again in "
                  + BootScripts.RETRY_SECONDS
                  + " s");
    } else {
      lastScript.put(mac, script.purpose());
      LOG.info(
          () ->
              "HTTP boot: "
                  + mac
                  + " from "
                  + exchange.getSourceAddress()
                  + " fetched its iPXE script ("
                  + script.purpose().mode()
                  + ")");
    }
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    exchange.getResponseSender().send(script.text());
  }

  static final java.util.regex.Pattern SEED =
      java.util.regex.Pattern.compile("/([A-Za-z0-9_-]{43})/(user-data|meta-data|vendor-data)");

  /**
   * {@code GET /metadata/<seed>/<file>}: the NoCloud seed of a deployment, which the deployed OS's
   * cloud-init reads (the boot environment writes this URL into the image's cloud-init
   * configuration). The seed token is the deployment's own, 256 bits.
   */
  private void metadata(HttpServerExchange exchange) {
    if (exchange.isInIoThread()) {
      exchange.dispatch(this::metadata);
      return;
    }
    java.util.regex.Matcher m = SEED.matcher(exchange.getRelativePath());
    BootPlanner p = planner.get();
    Optional<String> file =
        m.matches() && p != null ? p.cloudInit(m.group(1), m.group(2)) : Optional.empty();
    if (file.isEmpty()) {
      notFound(exchange);
      return;
    }
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    exchange.getResponseSender().send(file.get());
  }

  private void report(HttpServerExchange exchange) {
    if (exchange.isInIoThread()) {
      exchange.dispatch(this::report);
      return;
    }
    String mode = exchange.getRelativePath().replaceFirst("^/", "");
    BootPurpose purpose = BootPurpose.ofMode(mode).orElse(null);
    String mac = param(exchange, "mac");
    String token = param(exchange, "token");
    if (purpose == null
        || mac == null
        || !BootScripts.MAC.matcher(mac.replace(':', '-')).matches()) {
      refuse(exchange, StatusCodes.NOT_FOUND, "no such report: POST /report/<mode>?token=&mac=");
      return;
    }
    String why = tokens.redeem(token, mac, purpose);
    if (why != null) {
      String client = exchange.getSourceAddress().getAddress().getHostAddress();
      warnings.warn(
          "report " + client,
          () ->
              "Report "
                  + mode
                  + " from "
                  + client
                  + " for "
                  + mac
                  + " refused: "
                  + why
                  + ". A machine that booted before the appliance restarted must boot again");
      refuse(exchange, StatusCodes.FORBIDDEN, why);
      return;
    }
    BootPlanner p = plannerOrRefuse(exchange);
    if (p == null) {
      return;
    }
    exchange
        .getRequestReceiver()
        .receiveFullBytes(
            (ex, body) -> {
              try {
                String answer =
                    p.report(
                        new BootReport(
                            mac,
                            purpose,
                            new String(body, StandardCharsets.UTF_8),
                            String.valueOf(ex.getSourceAddress()),
                            Instant.now()));
                reports.increment();
                ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
                ex.getResponseSender().send(answer + "\n");
              } catch (IllegalArgumentException e) {
                refuse(ex, StatusCodes.UNPROCESSABLE_ENTITY, e.getMessage());
              } catch (RuntimeException e) {
                LOG.log(
                    java.util.logging.Level.WARNING,
                    "Report " + mode + " of " + mac + " failed",
                    e);
                refuse(
                    ex,
                    StatusCodes.SERVICE_UNAVAILABLE,
                    "the appliance could not keep it: " + e.getMessage());
              }
            },
            (ex, e) ->
                refuse(
                    ex,
                    StatusCodes.BAD_REQUEST,
                    "the report could not be read: " + e.getMessage()));
  }

  /** Log lines of a boot whose token is still good: POST /log?token=&mac=, one line per line. */
  private void log(HttpServerExchange exchange) {
    if (exchange.isInIoThread()) {
      exchange.dispatch(this::log);
      return;
    }
    String mac = param(exchange, "mac");
    if (mac == null || !BootScripts.MAC.matcher(mac.replace(':', '-')).matches()) {
      refuse(exchange, StatusCodes.NOT_FOUND, "no such log: POST /log?token=&mac=");
      return;
    }
    String token = param(exchange, "token");
    String why = tokens.check(token, mac);
    if (why != null) {
      refuse(exchange, StatusCodes.FORBIDDEN, why);
      return;
    }
    BootPlanner p = plannerOrRefuse(exchange);
    if (p == null) {
      return;
    }
    exchange
        .getRequestReceiver()
        .receiveFullBytes(
            (ex, body) -> {
              try {
                p.progress(
                    mac,
                    BootTokens.bootId(token),
                    java.util.Arrays.asList(new String(body, StandardCharsets.UTF_8).split("\n")));
                logLines.increment();
                ex.setStatusCode(StatusCodes.NO_CONTENT);
                ex.endExchange();
              } catch (RuntimeException e) {
                refuse(
                    ex,
                    StatusCodes.SERVICE_UNAVAILABLE,
                    "the appliance could not keep it: " + e.getMessage());
              }
            },
            (ex, e) ->
                refuse(
                    ex, StatusCodes.BAD_REQUEST, "the log could not be read: " + e.getMessage()));
  }

  /** Returns the planner, or null after answering 503 when provisioning is not running. */
  private BootPlanner plannerOrRefuse(HttpServerExchange exchange) {
    BootPlanner p = planner.get();
    if (p == null) {
      refuse(
          exchange,
          StatusCodes.SERVICE_UNAVAILABLE,
          "provisioning is not running on the appliance");
    }
    return p;
  }

  private void refuse(HttpServerExchange exchange, int status, String why) {
    refusedReports.increment();
    exchange.setStatusCode(status);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange.getResponseSender().send(why + "\n");
  }

  private static String param(HttpServerExchange exchange, String name) {
    Deque<String> v = exchange.getQueryParameters().get(name);
    return v == null || v.isEmpty() ? null : v.getFirst();
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
    if (worker != null) {
      worker.shutdownNow();
    }
  }
}
