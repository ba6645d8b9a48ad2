package io.bulwark.updates.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.lib.files.AtomicFile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Version;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.resolver.Resolver;

/**
 * Installs signed update packages without a restart. A package from the update stick is first
 * copied off it, then verified (both signatures, every file's SHA-384, confined paths, the R5 index
 * against the bundles, the running version), then its bundles are resolved against the running
 * framework without installing anything, then the changed bundles are staged into the offline
 * repository and hot-swapped in one operation, and the new set is health-checked; a failure rolls
 * back to the previous set, itself health-checked. An install journal written before the first
 * bundle is touched lets the next start restore the previous set after a crash. One install runs at
 * a time; every step is audited and every update lands in the history.
 */
@Component(
    service = UpdateService.class,
    // The web's and the start-up check's configurations too (as the environment overrides them):
    // the health check connects to the admin plane and looks for the required services.
    configurationPid = {"io.bulwark.updates", "io.bulwark.web", "io.bulwark.runtime.startup"},
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class UpdateService {
  private static final Logger LOG = Logger.getLogger(UpdateService.class.getName());
  static final String SUFFIX = ".bwu";
  static final String SELF = "bulwark.updates";
  private static final Pattern STICK_FILE =
      Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,122}\\.bwu", Pattern.CASE_INSENSITIVE);

  /** An install (or rollback) in progress, as the UI shows it. */
  static final class Job {
    final String id;
    final String kind;
    final String source;
    final String by;
    final Instant started = Instant.now();
    volatile String phase = "queued";
    volatile long bytes;
    volatile long total;
    volatile String message = "";

    Job(String id, String kind, String source, String by) {
      this.id = id;
      this.kind = kind;
      this.source = source;
      this.by = by;
    }

    JsonObject toJson() {
      return new JsonObject()
          .put("id", id)
          .put("kind", kind)
          .put("source", source)
          .put("by", by)
          .put("started", started.toString())
          .put("phase", phase)
          .put("bytes", bytes)
          .put("total", total)
          .put("message", message);
    }
  }

  /** A refusal: the package is not installed, and why. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private final BundleContext context;
  private final AuditLog audit;
  private final Resolver resolver;
  private final List<String> requiredServices;
  private final InetSocketAddress adminPlane;
  private final List<Path> keyFolders;
  private final Path watch;
  private final String watchSetting;
  private final FolderNames names;
  private final Path repository;
  private final UpdateState state;
  private final int healthSeconds;
  private final Swapper swapper;
  private final ExecutorService worker;

  /**
   * One worker for every instance of this component in this bundle revision: an instance
   * deactivated while it installs (a service it references went away with the swap) finishes its
   * install, and the next instance's start-up check of the journal runs only after it.
   */
  private static final ExecutorService WORKER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "bulwark-updates");
            t.setDaemon(true);
            return t;
          });

  private final AtomicReference<Job> job = new AtomicReference<>();

  @Activate
  public UpdateService(
      BundleContext context,
      UpdatesConfig config,
      @Reference AuditLog audit,
      @Reference Resolver resolver,
      Map<String, Object> properties) {
    this.context = context;
    this.audit = audit;
    this.resolver = resolver;
    this.requiredServices =
        properties.get("requiredServices") instanceof String[] s ? List.of(s) : List.of();
    this.adminPlane = adminPlane(properties);
    this.keyFolders = java.util.Arrays.stream(config.keyFolders()).map(Path::of).toList();
    this.watch = Path.of(config.watchFolder()).toAbsolutePath().normalize();
    this.watchSetting = config.watchFolder();
    this.repository = Path.of(config.repository()).toAbsolutePath().normalize();
    this.state = new UpdateState(Path.of(config.stateFolder()).toAbsolutePath().normalize());
    // the state folder is updates/ of the data folder (BULWARK_DATA_DIR)
    Path data = state.folder().getParent() == null ? state.folder() : state.folder().getParent();
    this.names = new FolderNames(data, watch, Path.of("").toAbsolutePath());
    this.healthSeconds = Math.max(5, config.healthSeconds());
    this.swapper = new Swapper(context, repository);
    this.worker = WORKER;
    LOG.info(
        () ->
            "Offline updates: watching "
                + watch
                + " for signed update packages (*"
                + SUFFIX
                + "), trusting the keys in "
                + keyFolders);
    Job recovery = new Job("startup", "startup", "journal", "bulwark");
    job.set(recovery);
    worker.execute(() -> startup(recovery));
  }

  @Deactivate
  void deactivate() {
    // The worker is shared and keeps running: an install in progress ends and records its outcome.
  }

  // ---------------------------------------------------------------- what the UI and API read

  /** The running set, the previous one, the job in progress and what the stick offers. */
  JsonObject status() throws IOException {
    JsonObject o = new JsonObject();
    Optional<BundleSet> current = state.current();
    o.put("version", current.map(BundleSet::version).orElse(baseVersion()));
    JsonArray bundles = new JsonArray();
    Map<String, Bundle> running = swapper.running();
    current.ifPresent(
        s ->
            s.bundles()
                .forEach(
                    (bsn, m) -> {
                      Bundle b = running.get(bsn);
                      bundles.add(
                          new JsonObject()
                              .put("symbolicName", bsn)
                              .put("version", m.version())
                              .put("origin", m.embedded() ? "image" : "update")
                              .put("state", b == null ? "missing" : SetHealth.state(b.getState())));
                    }));
    o.put("bundles", bundles);
    state
        .previous()
        .ifPresent(
            p ->
                o.put(
                    "previous",
                    new JsonObject()
                        .put("version", p.version())
                        .put(
                            "changed",
                            new JsonArray(new ArrayList<>(current.orElse(p).changedTo(p))))));
    Job j = job.get();
    if (j != null) {
      o.put("job", j.toJson());
    }
    o.put("stick", stick());
    o.put("revokedKeys", new JsonArray(new ArrayList<>(state.revoked())));
    return o;
  }

  List<JsonObject> history() throws IOException {
    return state.history();
  }

  private JsonObject stick() {
    JsonObject s = new JsonObject().put("folder", names.folder(watch, watchSetting));
    JsonArray files = new JsonArray();
    boolean present = Files.isDirectory(watch);
    if (present) {
      try (var list = Files.list(watch)) {
        for (Path p : list.sorted().toList()) {
          String name = p.getFileName().toString();
          if (STICK_FILE.matcher(name).matches()
              && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            files.add(
                new JsonObject()
                    .put("file", name)
                    .put("size", Files.size(p))
                    .put("modified", Files.getLastModifiedTime(p).toInstant().toString()));
          }
        }
      } catch (IOException e) {
        s.put("problem", "the stick cannot be read: " + names.text(e.getMessage()));
      }
    }
    return s.put("present", present).put("packages", files);
  }

  // ---------------------------------------------------------------- what the API starts

  /**
   * Installs {@code file} from the update stick.
   *
   * @throws IllegalArgumentException if there is no such package on the stick
   * @throws IllegalStateException if an install is already running
   */
  Job installFromStick(String file, boolean allowDowngrade, String by, String source) {
    if (file == null || !STICK_FILE.matcher(file).matches()) {
      throw new IllegalArgumentException(
          "'" + file + "' is no package name: letters, digits, '.', '_', '-', ending in " + SUFFIX);
    }
    Path p = watch.resolve(file);
    if (!p.getParent().equals(watch) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new java.util.NoSuchElementException("the update stick holds no package " + file);
    }
    Job j = begin("install", "stick:" + file, by);
    worker.execute(() -> install(j, p, true, allowDowngrade, source));
    return j;
  }

  /** Where an upload is received; it is deleted after its install. */
  Path incoming() throws IOException {
    Path in = state.folder().resolve("incoming");
    AtomicFile.createFolder(in);
    return in.resolve("upload-" + Long.toHexString(System.nanoTime()) + SUFFIX);
  }

  /**
   * Installs an uploaded package.
   *
   * @throws IllegalStateException if an install is already running
   */
  Job installUploaded(Path file, String name, boolean allowDowngrade, String by, String source) {
    Job j = begin("install", "upload:" + name, by);
    worker.execute(() -> install(j, file, false, allowDowngrade, source));
    return j;
  }

  /**
   * Moves back to the previous bundle set.
   *
   * @throws IllegalStateException if there is none, or an install is running
   */
  Job rollback(String by, String source) throws IOException {
    BundleSet current =
        state.current().orElseThrow(() -> new IllegalStateException("no update was installed"));
    BundleSet previous =
        state
            .previous()
            .orElseThrow(
                () -> new IllegalStateException("there is no previous bundle set to roll back to"));
    Job j = begin("rollback", "manual", by);
    worker.execute(() -> manualRollback(j, current, previous, source));
    return j;
  }

  private Job begin(String kind, String source, String by) {
    Job j = new Job(Long.toHexString(System.currentTimeMillis()), kind, source, by);
    Job running = job.get();
    if (running != null && !running.phase.equals("done")) {
      throw new IllegalStateException(
          "an update is in progress ("
              + running.source
              + ", "
              + running.phase
              + "); wait for it to end");
    }
    if (!job.compareAndSet(running, j)) {
      throw new IllegalStateException(
          "an update was started at the same moment; wait for it to end");
    }
    return j;
  }

  // ---------------------------------------------------------------- the install

  private void install(Job j, Path pkg, boolean fromStick, boolean allowDowngrade, String source) {
    JsonObject entry = entry(j);
    Map<String, Long> timings = new LinkedHashMap<>();
    Path staging = state.folder().resolve("staging").resolve(j.id);
    // What is deleted afterwards: the copy taken off the stick, or the upload; never the stick's
    // file.
    Path copy = fromStick ? null : pkg;
    long t0 = System.nanoTime();
    try {
      if (fromStick) {
        j.phase = "copying";
        copy = incoming();
        copyOff(j, pkg, copy);
        timings.put("copyMs", ms(t0));
      } else {
        j.total = Files.size(pkg);
        j.bytes = j.total;
      }
      entry.put("packageBytes", Files.size(copy));
      j.phase = "verifying";
      long t1 = System.nanoTime();
      AtomicFile.createFolder(staging);
      UpdatePackage.Verified v;
      try {
        v = UpdatePackage.verify(copy, UpdateKeys.load(keyFolders), state.revoked(), staging);
      } catch (IllegalArgumentException e) {
        throw new Refused(e.getMessage());
      }
      entry
          .put("version", v.manifest().version().toString())
          .put("notes", v.manifest().notes())
          .put("ecdsaSigner", v.ecdsaSigner())
          .put("lmsSigner", v.lmsSigner())
          .put("files", v.manifest().files().size());
      if (!v.manifest().revokes().isEmpty()) {
        state.revoke(v.manifest().revokes());
        entry.put("revokes", new JsonArray(new ArrayList<>(v.manifest().revokes())));
      }
      BundleSet from =
          state.current().orElseThrow(() -> new IOException("no running set is recorded"));
      Set<String> pluginNames = new java.util.TreeSet<>();
      Map<String, Path> all = bundles(v, staging, pluginNames);
      checkVersion(v.manifest(), from, allowDowngrade, j, source, entry);
      // plugins/ bundles the set does not run are only offered; those it runs are updated
      Map<String, Path> offeredJars = new TreeMap<>();
      Map<String, Path> jars = new TreeMap<>();
      all.forEach(
          (bsn, jar) ->
              (pluginNames.contains(bsn) && !from.bundles().containsKey(bsn) ? offeredJars : jars)
                  .put(bsn, jar));
      if (!offeredJars.isEmpty()) {
        entry.put("offered", new JsonArray(new ArrayList<>(offeredJars.keySet())));
      }
      BundleSet to = next(from, v.manifest().version().toString(), jars);
      List<String> changed = new ArrayList<>(from.changedTo(to));
      entry.put("changed", new JsonArray(changed));
      Set<String> reach = new java.util.TreeSet<>();
      Set<String> wired = wiredToSelf();
      Set<String> core = coreProviders();
      for (String bsn : changed) {
        if (wired.contains(bsn)) {
          reach.add(bsn);
        }
      }
      Set<String> refreshed = refreshClosure(new java.util.HashSet<>(changed));
      for (String bsn : changed) {
        // a changed bundle that is, or is depended on by, a bundle of the required services
        // and the role's configuration bundle: the Configurator re-delivers every configuration
        // when it is replaced, which the running services do not survive
        if (core.contains(bsn)
            || bsn.startsWith("bulwark.config.")
            || refreshClosure(Set.of(bsn)).stream().anyMatch(core::contains)) {
          reach.add(bsn);
        }
      }
      entry.put("refreshed", refreshed.size());
      if (!reach.isEmpty()) {
        throw new Refused(
            "the package changes bundles that cannot be swapped while the appliance runs ("
                + String.join(", ", reach)
                + "): the updater is wired to them, or the appliance's required services come from"
                + " them or from bundles wired to them; install this release with the appliance"
                + " image, or leave those bundles out");
      }
      if (changed.contains(SELF)) {
        throw new Refused(
            "the package changes the updater itself ("
                + SELF
                + "), which cannot replace itself"
                + " while it runs; install such a release with the appliance image");
      }
      if (v.manifest().restart()) {
        throw new Refused(
            "the package says it needs a restart; this appliance installs only live packages, install"
                + " it with the appliance image");
      }
      timings.put("verifyMs", ms(t1));
      audit(
          "update.verify",
          j,
          source,
          v.manifest().version().toString(),
          AuditOutcome.SUCCESS,
          Map.of(
              "ecdsaSigner",
              v.ecdsaSigner(),
              "lmsSigner",
              v.lmsSigner(),
              "changed",
              String.join(",", changed)));
      j.phase = "resolving";
      long t2 = System.nanoTime();
      List<BundleResource> incoming = new ArrayList<>();
      for (String bsn : changed) {
        if (jars.containsKey(bsn) && to.bundles().containsKey(bsn)) {
          incoming.add(BundleResource.read(jars.get(bsn)));
        }
      }
      List<String> unresolved = DryRun.check(resolver, context.getBundles(), incoming);
      timings.put("resolveMs", ms(t2));
      if (!unresolved.isEmpty()) {
        entry.put("unresolved", new JsonArray(unresolved));
        throw new Refused("the new bundle set does not resolve: " + String.join("; ", unresolved));
      }
      j.phase = "staging";
      stage(jars, to, staging);
      offer(offeredJars);
      swap(j, from, to, entry, timings, source, "version " + to.version() + " is running");
    } catch (Refused e) {
      finish(j, entry, timings, "refused", e.getMessage(), source);
    } catch (IOException e) {
      String why =
          fromStick && j.phase.equals("copying")
              ? "the stick was removed or could not be read while the package was copied off it ("
                  + e.getMessage()
                  + "); nothing was installed: put it back and try again"
              : "the package could not be read or staged (" + e + "); nothing was installed";
      finish(j, entry, timings, "refused", why, source);
    } catch (RuntimeException | GeneralSecurityException e) {
      LOG.log(Level.WARNING, "Update " + j.source + " failed", e);
      finish(j, entry, timings, "refused", "the update failed: " + e, source);
    } finally {
      try {
        UpdatePackage.clear(staging);
        Files.deleteIfExists(staging);
        if (copy != null) {
          Files.deleteIfExists(copy);
        }
      } catch (IOException e) {
        LOG.log(
            Level.WARNING, "Could not clear the staging of update " + j.id + ": " + e.getMessage());
      }
    }
  }

  /** The bundles that register the services the start-up check requires (and this updater). */
  private Set<String> coreProviders() {
    Set<String> out = new java.util.TreeSet<>();
    for (String service : requiredServices) {
      org.osgi.framework.ServiceReference<?> ref = context.getServiceReference(service);
      if (ref != null && ref.getBundle() != null) {
        out.add(ref.getBundle().getSymbolicName());
      }
    }
    return out;
  }

  /**
   * The running bundles a refresh of {@code bundles} restarts: them and every bundle wired to them.
   */
  private Set<String> refreshClosure(Set<String> bundles) {
    Set<String> out = new java.util.TreeSet<>();
    Deque<BundleWiring> todo = new ArrayDeque<>();
    Set<BundleWiring> seen = new java.util.HashSet<>();
    for (Bundle b : context.getBundles()) {
      BundleWiring w = b.adapt(BundleWiring.class);
      if (w != null && bundles.contains(b.getSymbolicName()) && seen.add(w)) {
        todo.add(w);
      }
    }
    while (!todo.isEmpty()) {
      BundleWiring w = todo.pop();
      out.add(w.getRevision().getSymbolicName());
      for (BundleWire wire : w.getProvidedWires(null)) {
        BundleWiring user = wire.getRequirerWiring();
        if (user != null && seen.add(user)) {
          todo.add(user);
        }
      }
    }
    return out;
  }

  /** The bundles whose refresh would refresh this one: everything it is wired to, transitively. */
  private Set<String> wiredToSelf() {
    Set<String> out = new java.util.TreeSet<>();
    Deque<BundleWiring> todo = new ArrayDeque<>();
    Set<BundleWiring> seen = new java.util.HashSet<>();
    BundleWiring self = context.getBundle().adapt(BundleWiring.class);
    if (self != null) {
      todo.add(self);
      seen.add(self);
    }
    while (!todo.isEmpty()) {
      for (BundleWire w : todo.pop().getRequiredWires(null)) {
        BundleWiring provider = w.getProviderWiring();
        if (provider != null
            && provider.getRevision().getBundle().getBundleId() != 0
            && seen.add(provider)) {
          out.add(provider.getRevision().getSymbolicName());
          todo.add(provider);
        }
      }
    }
    return out;
  }

  private void swap(
      Job j,
      BundleSet from,
      BundleSet to,
      JsonObject entry,
      Map<String, Long> timings,
      String source,
      String success)
      throws IOException {
    j.phase = "installing";
    long t3 = System.nanoTime();
    UpdateState.Journal journal = new UpdateState.Journal(j.id, "swap", from, to, entry.copy());
    state.journal(journal);
    List<String> problems = new ArrayList<>();
    try {
      problems.addAll(swapper.apply(from, to));
    } catch (BundleException | IOException | RuntimeException e) {
      problems.add("the framework refused the new bundles: " + e.getMessage());
    }
    timings.put("swapMs", ms(t3));
    j.phase = "checking";
    state.journal(journal.phase("check"));
    long t4 = System.nanoTime();
    if (problems.isEmpty()) {
      problems.addAll(health().check(to, System.currentTimeMillis() + healthSeconds * 1000L));
    }
    timings.put("checkMs", ms(t4));
    if (problems.isEmpty()) {
      state.sets(to, from);
      state.endJournal();
      audit(
          "update.swap",
          j,
          source,
          to.version(),
          AuditOutcome.SUCCESS,
          Map.of("changed", String.join(",", from.changedTo(to))));
      finish(j, entry, timings, "installed", success, source);
      return;
    }
    entry.put("problems", new JsonArray(problems));
    audit(
        "update.swap",
        j,
        source,
        to.version(),
        AuditOutcome.FAILURE,
        Map.of("problems", String.join("; ", problems)));
    j.phase = "rolling-back";
    state.journal(journal.phase("rollback"));
    long t5 = System.nanoTime();
    List<String> old = restore(to, from);
    timings.put("rollbackMs", ms(t5));
    state.endJournal();
    String why =
        "the new set failed its health check ("
            + String.join("; ", problems)
            + "); rolled back to "
            + from.version()
            + (old.isEmpty()
                ? ", which is healthy"
                : ", which is not healthy either: " + String.join("; ", old));
    audit(
        "update.rollback",
        j,
        source,
        from.version(),
        old.isEmpty() ? AuditOutcome.SUCCESS : AuditOutcome.FAILURE,
        Map.of("reason", String.join("; ", problems)));
    finish(j, entry, timings, "rolled-back", why, source);
  }

  /** Puts {@code from} back where {@code to} runs or was being installed; its health problems. */
  private List<String> restore(BundleSet to, BundleSet from) {
    List<String> problems = new ArrayList<>();
    try {
      problems.addAll(swapper.apply(to, from));
    } catch (BundleException | IOException | RuntimeException e) {
      problems.add("the framework refused the previous bundles: " + e.getMessage());
    }
    problems.addAll(health().check(from, System.currentTimeMillis() + healthSeconds * 1000L));
    return problems;
  }

  private void manualRollback(Job j, BundleSet current, BundleSet previous, String source) {
    JsonObject entry = entry(j).put("version", previous.version()).put("from", current.version());
    Map<String, Long> timings = new LinkedHashMap<>();
    try {
      j.phase = "installing";
      entry.put("changed", new JsonArray(new ArrayList<>(current.changedTo(previous))));
      UpdateState.Journal journal =
          new UpdateState.Journal(j.id, "swap", current, previous, entry.copy());
      state.journal(journal);
      long t = System.nanoTime();
      List<String> problems = new ArrayList<>();
      try {
        problems.addAll(swapper.apply(current, previous));
      } catch (BundleException | IOException | RuntimeException e) {
        problems.add("the framework refused the previous bundles: " + e.getMessage());
      }
      j.phase = "checking";
      if (problems.isEmpty()) {
        problems.addAll(
            health().check(previous, System.currentTimeMillis() + healthSeconds * 1000L));
      }
      timings.put("rollbackMs", ms(t));
      if (problems.isEmpty()) {
        state.sets(previous, current);
        state.endJournal();
        for (var e : current.bundles().entrySet()) {
          // a plugin of the image this rollback removed: kept removed at the next start
          if (!previous.bundles().containsKey(e.getKey()) && e.getValue().embedded()) {
            state.removed(e.getKey(), e.getValue().source());
          }
        }
        for (String bsn : previous.bundles().keySet()) {
          state.restored(bsn);
        }
        finish(
            j,
            entry,
            timings,
            "rolled-back",
            "version " + previous.version() + " is running again",
            source);
      } else {
        j.phase = "rolling-back";
        List<String> back = restore(previous, current);
        state.endJournal();
        finish(
            j,
            entry,
            timings,
            "failed",
            "the previous set failed its health check ("
                + String.join("; ", problems)
                + "); "
                + current.version()
                + " was put back"
                + (back.isEmpty() ? "" : " but is not healthy: " + String.join("; ", back)),
            source);
      }
    } catch (IOException e) {
      finish(
          j,
          entry,
          timings,
          "failed",
          "the rollback could not be recorded: " + e.getMessage(),
          source);
    }
  }

  // ---------------------------------------------------------------- optional plugins

  /**
   * The plugins: each bundle of the running set with whether an admin may remove it (and why not),
   * and the bundles offered for install: those of the offline repository's index and those removed
   * from the appliance's own jar that the running set does not hold.
   */
  JsonObject plugins() throws IOException {
    BundleSet current =
        state.current().orElseThrow(() -> new IOException("no running set is recorded yet"));
    Map<String, String> fixed = unremovable(current);
    Map<String, Bundle> runningBundles = swapper.running();
    JsonArray running = new JsonArray();
    current
        .bundles()
        .forEach(
            (bsn, m) -> {
              JsonObject o =
                  new JsonObject()
                      .put("symbolicName", bsn)
                      .put("version", m.version())
                      .put("origin", m.embedded() ? "image" : "update")
                      .put("removable", !fixed.containsKey(bsn));
              Bundle b = runningBundles.get(bsn);
              if (b != null && pluginKind(b) != null) {
                o.put("plugin", pluginKind(b));
              }
              if (fixed.containsKey(bsn)) {
                o.put("why", fixed.get(bsn));
              }
              running.add(o);
            });
    JsonArray offered = new JsonArray();
    offered(current)
        .forEach(
            (bsn, m) ->
                offered.add(
                    new JsonObject()
                        .put("symbolicName", bsn)
                        .put("version", m.version())
                        .put("origin", m.embedded() ? "image" : "offline repository")));
    return new JsonObject().put("running", running).put("offered", offered);
  }

  /**
   * Installs the offered plugin {@code bsn} into the running set, through the same journal, health
   * check and rollback as a package.
   *
   * @throws java.util.NoSuchElementException if no such plugin is offered
   * @throws IllegalStateException if an install is running
   */
  Job installPlugin(String bsn, String by, String source) throws IOException {
    BundleSet current =
        state.current().orElseThrow(() -> new IllegalStateException("no running set is recorded"));
    BundleSet.Member m = offered(current).get(bsn);
    if (m == null) {
      throw new java.util.NoSuchElementException(
          current.bundles().containsKey(bsn)
              ? bsn + " runs already"
              : "no plugin "
                  + bsn
                  + " is offered: neither the offline repository nor the appliance's jar holds"
                  + " it; bring it with an update package");
    }
    Job j = begin("plugin-install", "plugin:" + bsn, by);
    worker.execute(() -> changePlugins(j, current, bsn, m, source));
    return j;
  }

  /**
   * Removes the plugin {@code bsn} from the running set, through the same journal, health check and
   * rollback as a package; it stays offered for a later install.
   *
   * @throws java.util.NoSuchElementException if the running set holds no such bundle
   * @throws IllegalArgumentException if it may not be removed (the message says why)
   * @throws IllegalStateException if an install is running
   */
  Job removePlugin(String bsn, String by, String source) throws IOException {
    BundleSet current =
        state.current().orElseThrow(() -> new IllegalStateException("no running set is recorded"));
    if (!current.bundles().containsKey(bsn)) {
      throw new java.util.NoSuchElementException("the running set holds no bundle " + bsn);
    }
    String why = unremovable(current).get(bsn);
    if (why != null) {
      throw new IllegalArgumentException(bsn + " cannot be removed: " + why);
    }
    Job j = begin("plugin-remove", "plugin:" + bsn, by);
    worker.execute(() -> changePlugins(j, current, bsn, null, source));
    return j;
  }

  /** Moves the running set to one with {@code bsn} added ({@code member}) or removed (null). */
  private void changePlugins(
      Job j, BundleSet from, String bsn, BundleSet.Member member, String source) {
    JsonObject entry = entry(j).put("version", from.version()).put("from", from.version());
    Map<String, Long> timings = new LinkedHashMap<>();
    try {
      Map<String, BundleSet.Member> m = new TreeMap<>(from.bundles());
      if (member == null) {
        BundleSet.Member gone = m.remove(bsn);
        // recorded before the swap: a launcher that puts the image's bundle back at the next
        // start has it removed again; an install or a rollback that brings it back clears it
        state.removed(bsn, gone.source());
      } else {
        m.put(bsn, member);
      }
      BundleSet to = new BundleSet(from.version(), m);
      entry.put("changed", new JsonArray(List.of(bsn)));
      if (member != null) {
        j.phase = "resolving";
        long t = System.nanoTime();
        BundleResource r;
        try (InputStream in = swapper.open(member)) {
          Path tmp = state.folder().resolve("plugin-" + j.id + ".jar");
          try {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            r = BundleResource.read(tmp);
          } finally {
            Files.deleteIfExists(tmp);
          }
        }
        List<String> unresolved = DryRun.check(resolver, context.getBundles(), List.of(r));
        timings.put("resolveMs", ms(t));
        if (!unresolved.isEmpty()) {
          entry.put("unresolved", new JsonArray(unresolved));
          finish(
              j,
              entry,
              timings,
              "refused",
              "the plugin " + bsn + " does not resolve: " + String.join("; ", unresolved),
              source);
          return;
        }
      }
      swap(
          j,
          from,
          to,
          entry,
          timings,
          source,
          member == null
              ? "the plugin " + bsn + " was removed; it stays offered for a later install"
              : "the plugin " + bsn + " " + member.version() + " runs");
      BundleSet now = state.current().orElse(from);
      if (now.bundles().containsKey(bsn)) {
        state.restored(bsn);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "Plugin change " + j.source + " failed", e);
      try {
        if (state.current().map(c -> c.bundles().containsKey(bsn)).orElse(true)) {
          state.restored(bsn);
        }
      } catch (IOException again) {
        LOG.warning("The removed plugins cannot be recorded: " + again.getMessage());
      }
      finish(j, entry, timings, "refused", "the plugin change failed: " + e, source);
    }
  }

  /** The manifest header by which a bundle says it is an optional plugin, and of what kind. */
  static final String PLUGIN_HEADER = "Bulwark-Plugin";

  /** Returns what kind of optional plugin {@code b} is ("scheduler connector"), or null. */
  private static String pluginKind(Bundle b) {
    String kind = b.getHeaders("").get(PLUGIN_HEADER);
    return kind == null || kind.isBlank() ? null : kind.strip();
  }

  /**
   * The bundles of {@code current} an admin may not remove, each with the reason: all but the
   * optional plugins ({@value #PLUGIN_HEADER} in their manifest) nothing else depends on.
   */
  private Map<String, String> unremovable(BundleSet current) {
    Map<String, String> out = new TreeMap<>();
    Set<String> core = coreProviders();
    Set<String> wired = wiredToSelf();
    Map<String, Bundle> bundles = swapper.running();
    for (String bsn : current.bundles().keySet()) {
      Bundle running = bundles.get(bsn);
      // what else a removal would refresh: walked only for the plugins
      Set<String> closure =
          running == null || pluginKind(running) == null
              ? Set.of()
              : refreshClosure(Set.of(bsn)).stream()
                  .filter(b -> !b.equals(bsn))
                  .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
      if (bsn.equals(SELF)) {
        out.put(bsn, "it is the updater itself");
      } else if (running == null || pluginKind(running) == null) {
        out.put(bsn, "it is part of the appliance, not an optional plugin");
      } else if (bsn.startsWith("bulwark.config.")) {
        out.put(bsn, "it holds the role's configuration");
      } else if (core.contains(bsn)) {
        out.put(bsn, "it provides services the appliance requires");
      } else if (wired.contains(bsn)) {
        out.put(bsn, "the updater is wired to it");
      } else if (!closure.isEmpty()) {
        out.put(
            bsn,
            "other bundles are wired to it ("
                + String.join(", ", closure.stream().limit(5).toList())
                + (closure.size() > 5 ? " and " + (closure.size() - 5) + " more" : "")
                + ")");
      } else if (Swapper.fragment(running)) {
        out.put(bsn, "it is a fragment of another bundle");
      }
    }
    return out;
  }

  /**
   * The bundles offered for install, by symbolic name: the newest of each in the offline
   * repository's index and each removed bundle of the appliance's jar, where the running set has
   * none of that name.
   */
  private Map<String, BundleSet.Member> offered(BundleSet current) throws IOException {
    Map<String, BundleSet.Member> out = new TreeMap<>();
    Map<String, Version> newest = new TreeMap<>();
    Path index = repository.resolve(PackageWriter.INDEX);
    if (Files.isRegularFile(index)) {
      for (RepositoryIndex.Listed l : RepositoryIndex.read(Files.readAllBytes(index))) {
        if (current.bundles().containsKey(l.symbolicName())) {
          continue;
        }
        Version seen = newest.get(l.symbolicName());
        if (seen == null || l.version().compareTo(seen) > 0) {
          newest.put(l.symbolicName(), l.version());
          out.put(
              l.symbolicName(),
              new BundleSet.Member(l.version().toString(), BundleSet.REPO + l.url()));
        }
      }
    }
    for (var e : state.removed().entrySet()) {
      if (!current.bundles().containsKey(e.getKey()) && !out.containsKey(e.getKey())) {
        String source = e.getValue();
        String version = "";
        if (source.startsWith(BundleSet.EMBEDDED)) {
          try (java.util.jar.JarInputStream jar =
              new java.util.jar.JarInputStream(swapper.open(new BundleSet.Member("", source)))) {
            java.util.jar.Manifest mf = jar.getManifest();
            version = mf == null ? "" : mf.getMainAttributes().getValue("Bundle-Version");
          } catch (IOException gone) {
            continue; // not in this image's jar any more
          }
        }
        out.put(e.getKey(), new BundleSet.Member(version == null ? "" : version, source));
      }
    }
    return out;
  }

  /** At start: uninstalls removed plugins the launcher installed again from the appliance's jar. */
  private void removeAgain() throws IOException {
    Optional<BundleSet> current = state.current();
    if (current.isEmpty()) {
      return;
    }
    Map<String, Bundle> running = swapper.running();
    for (String bsn : state.removed().keySet()) {
      Bundle b = running.get(bsn);
      if (b != null && !current.get().bundles().containsKey(bsn)) {
        try {
          b.uninstall();
          LOG.info("Removed plugin " + bsn + " uninstalled again after the start");
        } catch (BundleException e) {
          LOG.warning("The removed plugin " + bsn + " cannot be uninstalled: " + e.getMessage());
        }
      }
    }
  }

  // ---------------------------------------------------------------- start-up: base set, journal

  private void startup(Job j) {
    try {
      long deadline = System.currentTimeMillis() + 300_000;
      while (context.getBundle(0).getState() != Bundle.ACTIVE
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      clearLeftovers();
      if (state.current().isEmpty()) {
        state.sets(base(), null);
      }
      Optional<UpdateState.Journal> journal = state.journal();
      if (journal.isEmpty()) {
        removeAgain();
        return;
      }
      UpdateState.Journal jr = journal.get();
      if (state.current().map(c -> c.equals(jr.to())).orElse(false)) {
        state.endJournal();
        return;
      }
      j.phase = "rolling-back";
      LOG.warning(
          "An update install was interrupted ("
              + jr.entry().getString("source", jr.id())
              + ", during "
              + jr.phase()
              + "): restoring the bundle set of version "
              + jr.from().version());
      List<String> problems = restore(jr.to(), jr.from());
      state.endJournal();
      JsonObject entry =
          jr.entry()
              .copy()
              .put("outcome", "rolled-back")
              .put("ended", Instant.now().toString())
              .put(
                  "reason",
                  "the appliance stopped during the install ("
                      + jr.phase()
                      + "); version "
                      + jr.from().version()
                      + " was restored at the next start"
                      + (problems.isEmpty()
                          ? ""
                          : ", but it is not healthy: " + String.join("; ", problems)));
      state.record(names.json(entry));
      audit.append(
          new AuditEvent(
              "bulwark",
              "journal",
              "update.recover",
              jr.from().version(),
              problems.isEmpty() ? AuditOutcome.SUCCESS : AuditOutcome.FAILURE,
              Map.of("interrupted", jr.phase(), "id", jr.id())));
      LOG.warning(
          "Interrupted update "
              + jr.id()
              + " rolled back; version "
              + jr.from().version()
              + " runs"
              + (problems.isEmpty() ? "" : " with problems: " + String.join("; ", problems)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      LOG.log(
          Level.SEVERE,
          "The update state in "
              + state.folder()
              + " cannot be used: "
              + e.getMessage()
              + "; updates are refused until it is repaired",
          e);
    } finally {
      j.phase = "done";
    }
  }

  private void clearLeftovers() throws IOException {
    Path staging = state.folder().resolve("staging");
    if (Files.isDirectory(staging)) {
      UpdatePackage.clear(staging);
    }
    Path in = state.folder().resolve("incoming");
    if (Files.isDirectory(in)) {
      UpdatePackage.clear(in);
    }
  }

  /** The set the appliance's own jar installed: every bundle it holds, by its location. */
  private BundleSet base() {
    Map<String, BundleSet.Member> m = new TreeMap<>();
    for (Bundle b : swapper.running().values()) {
      if (Swapper.embedded(b.getLocation())) {
        m.put(
            b.getSymbolicName(),
            new BundleSet.Member(b.getVersion().toString(), BundleSet.EMBEDDED + b.getLocation()));
      }
    }
    return new BundleSet(baseVersion(), m);
  }

  private String baseVersion() {
    Version v = context.getBundle().getVersion();
    return new Version(v.getMajor(), v.getMinor(), v.getMicro()).toString();
  }

  // ---------------------------------------------------------------- verification helpers

  /**
   * The package's bundles by symbolic name (those of {@code plugins/} among them, marked in {@code
   * plugins}), checked against its R5 index.
   */
  private static Map<String, Path> bundles(
      UpdatePackage.Verified v, Path staging, Set<String> plugins)
      throws IOException, GeneralSecurityException, Refused {
    Map<String, Path> jars = new TreeMap<>();
    Map<String, BundleResource> resources = new TreeMap<>();
    for (UpdateManifest.Entry e : v.manifest().files()) {
      if (!PackageWriter.isBundle(e.path())) {
        continue;
      }
      if (!e.path().endsWith(".jar")) {
        throw new Refused(
            "'"
                + e.path()
                + "' in "
                + e.path().substring(0, e.path().indexOf('/') + 1)
                + " is not a jar");
      }
      Path jar = staging.resolve(e.path());
      BundleResource r;
      try {
        r = BundleResource.read(jar);
      } catch (IllegalArgumentException | IOException x) {
        throw new Refused("'" + e.path() + "' is not a usable OSGi bundle: " + x.getMessage());
      }
      if (jars.put(r.symbolicName(), jar) != null) {
        throw new Refused("the package holds " + r.symbolicName() + " twice");
      }
      if (e.path().startsWith("plugins/")) {
        plugins.add(r.symbolicName());
      }
      resources.put(e.path(), r);
    }
    if (jars.isEmpty()) {
      return jars;
    }
    Path index = staging.resolve(PackageWriter.INDEX);
    if (!Files.isRegularFile(index)) {
      throw new Refused("the package holds bundles but no index.xml (their R5 repository index)");
    }
    List<RepositoryIndex.Listed> listed;
    try {
      listed = RepositoryIndex.read(Files.readAllBytes(index));
    } catch (IllegalArgumentException e) {
      throw new Refused(e.getMessage());
    }
    Map<String, RepositoryIndex.Listed> byUrl = new TreeMap<>();
    for (RepositoryIndex.Listed l : listed) {
      if (!resources.containsKey(l.url())) {
        throw new Refused("index.xml lists " + l.url() + ", which the package does not hold");
      }
      byUrl.put(l.url(), l);
    }
    for (var e : resources.entrySet()) {
      RepositoryIndex.Listed l = byUrl.get(e.getKey());
      if (l == null) {
        throw new Refused("index.xml does not list " + e.getKey());
      }
      BundleResource r = e.getValue();
      if (!l.symbolicName().equals(r.symbolicName()) || !l.version().equals(r.version())) {
        throw new Refused(
            "index.xml calls "
                + e.getKey()
                + " "
                + l.symbolicName()
                + " "
                + l.version()
                + ", but it is "
                + r);
      }
      String sha = PackageWriter.digest(staging.resolve(e.getKey()), "SHA-256");
      if (!sha.equals(l.sha256())) {
        throw new Refused("index.xml gives " + e.getKey() + " another SHA-256 than it has");
      }
    }
    return jars;
  }

  private void checkVersion(
      UpdateManifest m,
      BundleSet from,
      boolean allowDowngrade,
      Job j,
      String source,
      JsonObject entry)
      throws Refused {
    Version running = Version.parseVersion(from.version());
    entry.put("from", from.version());
    if (!m.appliesTo(running)) {
      throw new Refused(
          "the package ("
              + m.version()
              + ") applies to "
              + m.appliesTo()
              + ", and this appliance runs "
              + running);
    }
    int c = m.version().compareTo(running);
    if (c == 0) {
      throw new Refused("this appliance already runs version " + running);
    }
    if (c < 0) {
      if (!allowDowngrade) {
        throw new Refused(
            "the package would downgrade "
                + running
                + " to "
                + m.version()
                + "; an admin may allow a downgrade explicitly (it is audited)");
      }
      entry.put("downgrade", true);
      audit(
          "update.downgrade",
          j,
          source,
          m.version().toString(),
          AuditOutcome.SUCCESS,
          Map.of("from", running.toString()));
    }
  }

  /** The set after the package: each of its bundles replaces the running one unless identical. */
  private BundleSet next(BundleSet from, String version, Map<String, Path> jars)
      throws IOException, GeneralSecurityException {
    Map<String, BundleSet.Member> m = new TreeMap<>(from.bundles());
    for (var e : jars.entrySet()) {
      String sha = PackageWriter.sha384(e.getValue());
      BundleSet.Member old = m.get(e.getKey());
      if (old != null && sha.equals(sha384(old))) {
        continue;
      }
      BundleResource r = BundleResource.read(e.getValue());
      m.put(
          e.getKey(),
          new BundleSet.Member(
              r.version().toString(),
              BundleSet.REPO + repositoryPath(e.getKey(), r.version(), sha)));
    }
    return new BundleSet(version, m);
  }

  private String sha384(BundleSet.Member m) throws IOException, GeneralSecurityException {
    MessageDigest d = MessageDigest.getInstance("SHA-384");
    try (InputStream in = swapper.open(m)) {
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        d.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(d.digest());
  }

  /** Where the offline repository keeps a bundle: {@code bundles/BSN-VERSION-SHA384PREFIX.jar}. */
  private static String repositoryPath(String bsn, Version version, String sha384) {
    return "bundles/" + bsn + "-" + version + "-" + sha384.substring(0, 16) + ".jar";
  }

  /** Puts plugins the set does not run into the offline repository, where they are offered. */
  private void offer(Map<String, Path> plugins) throws IOException, GeneralSecurityException {
    if (plugins.isEmpty()) {
      return;
    }
    for (var e : plugins.entrySet()) {
      BundleResource r = BundleResource.read(e.getValue());
      String sha = PackageWriter.sha384(e.getValue());
      Path target = repository.resolve(repositoryPath(e.getKey(), r.version(), sha));
      if (!Files.exists(target)) {
        AtomicFile.createFolder(target.getParent());
        AtomicFile.write(target, Files.readAllBytes(e.getValue()));
      }
    }
    writeIndex();
  }

  /** Puts the new set's jars into the offline repository (synced) and rewrites its index. */
  private void stage(Map<String, Path> jars, BundleSet to, Path staging)
      throws IOException, GeneralSecurityException {
    for (var e : to.bundles().entrySet()) {
      BundleSet.Member m = e.getValue();
      if (m.embedded() || !jars.containsKey(e.getKey())) {
        continue;
      }
      Path target = repository.resolve(m.source().substring(BundleSet.REPO.length()));
      if (!Files.exists(target)) {
        AtomicFile.createFolder(target.getParent());
        AtomicFile.write(target, Files.readAllBytes(jars.get(e.getKey())));
      }
    }
    for (String folder : List.of("images", "os")) {
      Path from = staging.resolve(folder);
      if (Files.isDirectory(from)) {
        try (var walk = Files.walk(from)) {
          for (Path p : walk.filter(Files::isRegularFile).toList()) {
            Path target = repository.resolve(staging.relativize(p).toString());
            Files.createDirectories(target.getParent());
            Files.move(p, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    }
    writeIndex();
  }

  /** Rewrites the offline repository's R5 index from the jars it holds. */
  private void writeIndex() throws IOException, GeneralSecurityException {
    List<RepositoryIndex.Entry> entries = new ArrayList<>();
    Path bundles = repository.resolve("bundles");
    if (Files.isDirectory(bundles)) {
      try (var list = Files.list(bundles)) {
        for (Path p : list.filter(x -> x.toString().endsWith(".jar")).sorted().toList()) {
          entries.add(
              new RepositoryIndex.Entry(
                  "bundles/" + p.getFileName(),
                  BundleResource.read(p),
                  PackageWriter.digest(p, "SHA-256"),
                  Files.size(p)));
        }
      }
    }
    AtomicFile.write(
        repository.resolve(PackageWriter.INDEX),
        RepositoryIndex.write("bulwark-offline", System.currentTimeMillis(), entries));
  }

  private void copyOff(Job j, Path from, Path to) throws IOException, Refused {
    long size = Files.size(from);
    j.total = size;
    long free = Files.getFileStore(to.getParent()).getUsableSpace();
    if (size * 2 + (256L << 20) > free) {
      throw new Refused(
          "the package ("
              + (size >> 20)
              + " MiB) needs twice its size and 256 MiB free in "
              + state.folder()
              + ", which has "
              + (free >> 20)
              + " MiB");
    }
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(from);
        OutputStream out =
            Files.newOutputStream(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        out.write(buf, 0, n);
        j.bytes += n;
      }
    }
    if (j.bytes != size) {
      throw new IOException("read " + j.bytes + " of " + size + " bytes");
    }
  }

  // ---------------------------------------------------------------- the rest

  private SetHealth health() {
    return new SetHealth(context, requiredServices, adminPlane);
  }

  /** Where the admin plane listens, from the web's configuration; null where no web runs. */
  private static InetSocketAddress adminPlane(Map<String, Object> properties) {
    Object port = properties.get("httpsPort");
    if (port == null) {
      return null;
    }
    String host = String.valueOf(properties.getOrDefault("bindAddress", "127.0.0.1"));
    if (host.equals("0.0.0.0") || host.equals("::") || host.isBlank()) {
      host = "127.0.0.1";
    }
    try {
      return new InetSocketAddress(host, Integer.parseInt(port.toString().strip()));
    } catch (IllegalArgumentException e) {
      LOG.warning(
          "The admin plane's port '" + port + "' is unusable; the update health check skips it");
      return null;
    }
  }

  private JsonObject entry(Job j) {
    return new JsonObject()
        .put("id", j.id)
        .put("kind", j.kind)
        .put("source", j.source)
        .put("by", j.by)
        .put("started", j.started.toString());
  }

  private void finish(
      Job j,
      JsonObject entry,
      Map<String, Long> timings,
      String outcome,
      String told,
      String source) {
    String reason = names.text(told);
    entry
        .put("outcome", outcome)
        .put("reason", reason)
        .put("ended", Instant.now().toString())
        .put("timings", new JsonObject(new LinkedHashMap<>(timings)));
    j.message = reason;
    try {
      state.record(names.json(entry));
    } catch (IOException e) {
      LOG.log(Level.WARNING, "The update history cannot be written: " + e.getMessage());
    }
    AuditOutcome o =
        outcome.equals("installed") || (j.kind.equals("rollback") && outcome.equals("rolled-back"))
            ? AuditOutcome.SUCCESS
            : AuditOutcome.FAILURE;
    audit(
        j.kind.equals("rollback")
            ? "update.rollback"
            : j.kind.startsWith("plugin-")
                ? "update." + j.kind.replace('-', '.')
                : "update.install",
        j,
        source,
        entry.getString("version", j.source),
        o,
        Map.of("outcome", outcome, "reason", reason, "source", j.source));
    Level level = o == AuditOutcome.SUCCESS ? Level.INFO : Level.WARNING;
    LOG.log(level, "Update " + j.source + ": " + outcome + ": " + reason);
    j.phase = "done";
  }

  private void audit(
      String action,
      Job j,
      String source,
      String target,
      AuditOutcome outcome,
      Map<String, String> details) {
    Map<String, String> named = new TreeMap<>();
    details.forEach((k, v) -> named.put(k, names.text(v)));
    try {
      audit.append(new AuditEvent(j.by, source, action, target, outcome, named));
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "The audit log refused " + action + " of update " + j.id + ": " + e.getMessage());
    }
  }

  /**
   * Returns {@code message} with the server's files named as admins read them: relative to the data
   * folder, packages by their name on the stick.
   */
  String named(String message) {
    return names.text(message);
  }

  private static long ms(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }

  /** Returns the folders of the trusted update keys. */
  List<Path> keyFolders() {
    return keyFolders;
  }

  /**
   * Returns the ids of the update keys revoked so far.
   *
   * @throws IOException if the record of revocations cannot be read
   */
  java.util.Set<String> revokedKeys() throws IOException {
    return state.revoked();
  }
}
