package io.bulwark.provisioning.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineRefusedException;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.provisioning.BootPlanner;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.provisioning.BootReport;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.system.SteadyClock;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Enlistment, commissioning and testing: what a booting machine does follows from its state (a MAC
 * no machine has is enlisted; Commissioning and Testing run the hardware tests; Deploying, Disk
 * erasing and Rescue mode boot the environment in those modes; every other state boots from the
 * local disk), and the boot environment's reports become machines, inventories and test results.
 * Enlistment is bounded per client address and overall ({@link Enlistment}), since anyone on the
 * provisioning network can boot a MAC they made up.
 */
@Component(
    service = {BootPlanner.class, Provisioning.class},
    configurationPid = "io.bulwark.provisioning",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ProvisioningConfig.class)
public final class Provisioning implements BootPlanner {
  private static final Logger LOG = Logger.getLogger(Provisioning.class.getName());
  static final String BY = "provisioning";

  private final MachineService machines;
  private final RecordStore store;
  private final AuditLog audit;

  private final ImageStore images;
  private final Enlistment enlistment;
  private final BootLogs bootLogs;
  private final ScheduledExecutorService sweeper;

  @Activate
  public Provisioning(
      @Reference MachineService machines,
      @Reference RecordStore store,
      @Reference AuditLog audit,
      ProvisioningConfig config) {
    this(
        machines,
        store,
        audit,
        new ImageStore(
            Path.of(config.imageFolder()).toAbsolutePath(),
            Arrays.stream(config.keyFolders()).map(Path::of).toList()),
        EnlistmentLimits.of(config),
        SteadyClock.system());
  }

  Provisioning(MachineService machines, RecordStore store, AuditLog audit, ImageStore images) {
    this(machines, store, audit, images, EnlistmentLimits.DEFAULTS, SteadyClock.system());
  }

  Provisioning(
      MachineService machines,
      RecordStore store,
      AuditLog audit,
      ImageStore images,
      EnlistmentLimits limits,
      Clock clock) {
    this.machines = machines;
    this.store = store;
    this.audit = audit;
    this.images = images;
    this.enlistment = new Enlistment(machines, store, audit, limits, clock);
    this.bootLogs = new BootLogs(store);
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-provisioning");
              t.setDaemon(true);
              return t;
            });
    sweeper.scheduleWithFixedDelay(this::sweep, 2, 2, TimeUnit.SECONDS);
  }

  @Deactivate
  void stop() {
    sweeper.shutdownNow();
    enlistment.flush(true);
  }

  /** Audits the enlistment refusals counted in the minutes that have ended ({@code all}: all). */
  void flushRefusals(boolean all) {
    enlistment.flush(all);
  }

  /**
   * Moves the operations under way along: a release without erasure has nothing to boot and ends at
   * once; a machine with a BMC that has to boot the boot environment gets its next boot set to the
   * network and is powered on (or cycled) through its BMC; one leaving rescue mode is restarted to
   * its disk.
   */
  void sweep() {
    enlistment.flush(false);
    // One read of the power steps per sweep, not one per machine.
    Map<String, PowerStep> steps =
        store.read(
            r ->
                r.map(PowerStep.MAP).entries().stream()
                    .collect(
                        java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    for (Machine m : machines.machines()) {
      try {
        if (m.state() == MachineState.RELEASING) {
          machines.complete(m.id(), "released", BY);
          LOG.info(() -> m.id().value() + " released: Ready");
        } else if (NETWORK_BOOTS.contains(m.state())
            || m.state() == MachineState.EXITING_RESCUE_MODE) {
          power(m, steps.get(m.id().value()));
        } else {
          ended(m, steps.get(m.id().value()));
        }
      } catch (RuntimeException e) {
        LOG.warning(
            "Could not move machine "
                + m.id().value()
                + " ("
                + m.state().label()
                + ") along: "
                + e.getMessage()
                + "; retried in 2 s");
      }
    }
  }

  /** The states in which a machine boots the boot environment over the network. */
  static final Set<MachineState> NETWORK_BOOTS =
      java.util.EnumSet.of(
          MachineState.COMMISSIONING,
          MachineState.TESTING,
          MachineState.DEPLOYING,
          MachineState.DISK_ERASING,
          MachineState.ENTERING_RESCUE_MODE);

  /**
   * One step of powering the machine for its operation: set the next boot (network, or disk when
   * leaving rescue mode), then power on or cycle, each stored before it is asked of the BMC and
   * each waiting for the one before to end. A BMC that refuses fails the operation with its words.
   * A machine without a BMC is left to boot by itself (or by hand), as the operator was told.
   */
  private void power(Machine m, PowerStep step) {
    boolean exiting = m.state() == MachineState.EXITING_RESCUE_MODE;
    if (m.bmc() == null) {
      if (exiting) {
        machines.complete(
            m.id(), "rescue mode ended; it has no BMC: restart it by hand to boot its disk", BY);
      }
      return;
    }
    if (!m.pending().isEmpty()) {
      return;
    }
    String stage = step != null && step.since().equals(m.stateSince()) ? step.stage() : "";
    if (!stage.isEmpty()) {
      Optional<String> failed = lastBmcFailure(m, stage);
      if (failed.isPresent()) {
        machines.fail(
            m.id(),
            "its BMC did not "
                + (stage.equals(PowerStep.BOOT_SET) ? "set the next boot" : "power it")
                + ": "
                + failed.get(),
            BY);
        return;
      }
    }
    switch (stage) {
      case "" -> {
        mark(m, PowerStep.BOOT_SET);
        machines.setNextBoot(
            m.id(),
            exiting ? io.bulwark.api.bmc.BootDevice.DISK : io.bulwark.api.bmc.BootDevice.PXE,
            true,
            m.state().label() + ": boot " + (exiting ? "its disk" : "the boot environment"),
            BY);
      }
      case PowerStep.BOOT_SET -> {
        mark(m, PowerStep.POWERED);
        MachineOperation op =
            m.power() == io.bulwark.api.machine.PowerState.OFF
                ? MachineOperation.POWER_ON
                : MachineOperation.POWER_CYCLE;
        machines.operate(m.id(), op, m.state().label() + ": " + op.apiName(), BY);
      }
      case PowerStep.POWERED -> {
        if (exiting) {
          machines.complete(m.id(), "rescue mode ended: restarted to its disk", BY);
        }
      }
      default -> {}
    }
  }

  /**
   * The operation the machine was powered for has ended: its power step is forgotten, and a machine
   * whose operation was aborted is switched off through its BMC (its boot environment would
   * otherwise run on, or wait at a console), as MAAS does.
   */
  private void ended(Machine m, PowerStep step) {
    if (step == null) {
      return;
    }
    List<io.bulwark.api.machine.MachineEvent> recent = machines.history(m.id(), 1);
    boolean aborted =
        !recent.isEmpty() && recent.get(recent.size() - 1).operation().equals("abort");
    if (aborted && m.bmc() != null && !m.pending().isEmpty()) {
      return; // switched off once the BMC request under way ends
    }
    store.write(
        "forget the power step of " + m.id().value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(PowerStep.MAP).remove(m.id().value());
          return null;
        });
    if (aborted && m.bmc() != null) {
      machines.operate(
          m.id(), MachineOperation.POWER_OFF, "aborted: the boot environment is switched off", BY);
    }
  }

  private void mark(Machine m, String stage) {
    store.write(
        "keep the power step of " + m.id().value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(PowerStep.MAP)
              .put(m.id().value(), new PowerStep(m.id().value(), m.stateSince(), stage));
          return null;
        });
  }

  /** Returns the BMC's refusal of the request the stage made, if the history shows one. */
  private Optional<String> lastBmcFailure(Machine m, String stage) {
    List<io.bulwark.api.machine.MachineEvent> recent = machines.history(m.id(), 3);
    if (recent.isEmpty()) {
      return Optional.empty();
    }
    io.bulwark.api.machine.MachineEvent last = recent.get(recent.size() - 1);
    boolean ours =
        stage.equals(PowerStep.BOOT_SET)
            ? last.operation().equals("set-boot failed")
            : last.operation().equals("power-on failed")
                || last.operation().equals("power-cycle failed");
    return ours && !last.at().isBefore(m.stateSince())
        ? Optional.of(last.reason())
        : Optional.empty();
  }

  ImageStore images() {
    return images;
  }

  Optional<DeploymentRecord> deployment(MachineId id) {
    return Optional.ofNullable(store.read(r -> r.map(DeploymentRecord.MAP).get(id.value())));
  }

  /**
   * Deploys {@code image} to the machine: stores what it is deployed with, then allocates it (if
   * Ready) and starts the deployment (Deploying until its boot environment reports).
   *
   * @throws IllegalArgumentException if the image is unknown or not signed by a trusted key
   * @throws MachineRefusedException if the machine's state does not allow it
   */
  Machine deploy(MachineId id, String imageName, String userData, String by) {
    Machine m =
        machines
            .machine(id)
            .orElseThrow(() -> new java.util.NoSuchElementException("no machine " + id.value()));
    ImageStore.Image image;
    try {
      image =
          images
              .image(imageName)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "no image '" + imageName + "' in " + images.folder()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!image.trusted()) {
      throw new IllegalArgumentException(
          "image '" + imageName + "' is not deployable: " + image.problem());
    }
    if (m.state() != MachineState.READY
        && m.state() != MachineState.ALLOCATED
        && m.state() != MachineState.FAILED_DEPLOYMENT) {
      throw new MachineRefusedException(
          id, m.state(), MachineOperation.DEPLOY, "only a Ready or Allocated machine is deployed");
    }
    DeploymentRecord record =
        new DeploymentRecord(
            id.value(),
            image.name(),
            image.sha256(),
            image.size(),
            userData == null ? "" : userData,
            "none",
            "deploying",
            Instant.now(),
            seedToken());
    store.write(
        "keep the deployment of " + id.value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(DeploymentRecord.MAP).put(id.value(), record);
          return null;
        });
    if (m.state() == MachineState.READY) {
      machines.operate(id, MachineOperation.ALLOCATE, "deploy " + image.name(), by);
    }
    return machines.operate(
        id, MachineOperation.DEPLOY, "deploy " + image.name() + " (" + image.sha256() + ")", by);
  }

  /**
   * Releases the machine: without erasure it is Ready at once; with {@code quick} or {@code secure}
   * erasure it boots the boot environment to erase its disks first.
   */
  Machine release(MachineId id, String erase, String by) {
    if (!List.of("none", "quick", "secure").contains(erase)) {
      throw new IllegalArgumentException("erase is none, quick or secure, not '" + erase + "'");
    }
    Machine m =
        machines
            .machine(id)
            .orElseThrow(() -> new java.util.NoSuchElementException("no machine " + id.value()));
    DeploymentRecord d =
        deployment(id)
            .orElse(new DeploymentRecord(id.value(), "", "", 0, "", "none", "", Instant.now(), ""));
    DeploymentRecord withErase = d.withErase(erase, Instant.now());
    store.write(
        "keep the release of " + id.value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(DeploymentRecord.MAP).put(id.value(), withErase);
          return null;
        });
    if (erase.equals("none")) {
      return machines.operate(m.id(), MachineOperation.RELEASE, "release", by);
    }
    return machines.operate(
        m.id(), MachineOperation.ERASE_DISKS, "release with " + erase + " erase", by);
  }

  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  /** A deployment's seed token: 256 bits, URL-safe (43 characters). */
  static String seedToken() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  @Override
  public Optional<String> cloudInit(String token, String file) {
    if (token == null || token.length() != 43) {
      return Optional.empty();
    }
    Optional<DeploymentRecord> d =
        store.read(
            r ->
                r.map(DeploymentRecord.MAP).entries().stream()
                    .map(Map.Entry::getValue)
                    .filter(
                        x ->
                            java.security.MessageDigest.isEqual(
                                x.seed().getBytes(), token.getBytes()))
                    .findFirst());
    if (d.isEmpty()) {
      return Optional.empty();
    }
    Optional<Machine> m = machines.machine(MachineId.of(d.get().machine()));
    if (m.isEmpty()
        || (m.get().state() != MachineState.DEPLOYED
            && m.get().state() != MachineState.DEPLOYING)) {
      return Optional.empty();
    }
    return switch (file) {
      case "user-data" ->
          Optional.of(d.get().userData().isEmpty() ? "#cloud-config\n{}\n" : d.get().userData());
      case "meta-data" ->
          Optional.of(
              "instance-id: "
                  + m.get().id().value()
                  + "-"
                  + d.get().seed().substring(0, 8)
                  + "\nlocal-hostname: "
                  + m.get().hostname()
                  + "\n");
      case "vendor-data" -> Optional.of("");
      default -> Optional.empty();
    };
  }

  @Override
  public Map<String, String> kernelArguments(String mac) {
    Optional<Machine> m = byMac(mac);
    if (m.isEmpty()) {
      return Map.of();
    }
    Optional<DeploymentRecord> d = deployment(m.get().id());
    if (m.get().state() == MachineState.DEPLOYING && d.isPresent()) {
      return Map.of(
          "image", "images/" + d.get().image() + ".img",
          "sha256", d.get().sha256(),
          "size", Long.toString(d.get().size()),
          "seed", d.get().seed());
    }
    if (m.get().state() == MachineState.TESTING) {
      TestChoice choice = store.read(r -> r.map(TestChoice.MAP).get(m.get().id().value()));
      return choice == null || choice.tests().isEmpty()
          ? Map.of()
          : Map.of("tests", String.join(",", choice.tests()));
    }
    if (m.get().state() == MachineState.DISK_ERASING) {
      String mode = d.map(DeploymentRecord::erase).filter(e -> !e.equals("none")).orElse("quick");
      return Map.of("erase", mode);
    }
    return Map.of();
  }

  Optional<Machine> byMac(String mac) {
    return machines.machines().stream().filter(m -> m.macs().contains(mac)).findFirst();
  }

  @Override
  public BootPurpose purpose(String mac) {
    Optional<Machine> m = byMac(mac);
    if (m.isEmpty()) {
      return BootPurpose.ENLIST;
    }
    return switch (m.get().state()) {
      case COMMISSIONING -> BootPurpose.COMMISSION;
      case TESTING -> BootPurpose.TEST;
      case DEPLOYING -> BootPurpose.DEPLOY;
      case DISK_ERASING -> BootPurpose.ERASE;
      case ENTERING_RESCUE_MODE, RESCUE_MODE -> BootPurpose.RESCUE;
      default -> BootPurpose.LOCAL;
    };
  }

  @Override
  public String report(BootReport report) {
    if (report.purpose() == BootPurpose.ENLIST && byMac(report.mac()).isEmpty()) {
      return enlistment.take(report);
    }
    String action = "provisioning.report-" + report.purpose().mode();
    String actor = "boot-environment:" + report.mac();
    String source = Enlistment.address(report.from());
    try {
      String answer = take(report);
      String target = byMac(report.mac()).map(m -> m.id().value()).orElse(report.mac());
      audit.append(
          new AuditEvent(
              actor, source, action, target, AuditOutcome.SUCCESS, Map.of("answer", answer)));
      return answer;
    } catch (IllegalArgumentException e) {
      String target = byMac(report.mac()).map(m -> m.id().value()).orElse(report.mac());
      audit.append(
          new AuditEvent(
              actor,
              source,
              action,
              target,
              AuditOutcome.FAILURE,
              Map.of("error", String.valueOf(e.getMessage()))));
      throw e;
    }
  }

  private String take(BootReport report) {
    JsonObject body;
    try {
      body = new JsonObject(report.json());
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException("the report is not a JSON object: " + e.getMessage());
    }
    if (body.getBoolean("failed", false)) {
      return stopped(report, body);
    }
    return switch (report.purpose()) {
      case RESCUE -> rescued(report);
      case ENLIST ->
          throw new IllegalArgumentException(
              report.mac()
                  + " is already machine "
                  + byMac(report.mac()).map(m -> m.id().value()).orElse("?")
                  + ": it is not enlisted twice");
      case COMMISSION, TEST -> tested(report, body);
      case DEPLOY -> deployed(report, body);
      case ERASE -> erased(report, body);
      default ->
          throw new IllegalArgumentException(
              "reports of " + report.purpose().mode() + " are not taken by this appliance yet");
    };
  }

  /**
   * The boot environment stopped short of its work ({@code {"failed": true, "reason": "…"}}): the
   * operation fails now, with the reason and the last lines it logged, rather than at its timeout.
   */
  private String stopped(BootReport report, JsonObject body) {
    String reason = body.getString("reason", "no reason given");
    reason = reason.length() > 300 ? reason.substring(0, 300) : reason;
    Optional<Machine> m = byMac(report.mac());
    String key = m.map(x -> x.id().value()).orElse(report.mac());
    BootLog log = store.read(r -> r.map(BootLog.MAP).get(key));
    String tail = log == null ? "" : log.tail(3);
    if (m.isEmpty() || !m.get().state().isTransient()) {
      LOG.warning(
          "The boot environment of "
              + report.mac()
              + " stopped ("
              + report.purpose().mode()
              + "): "
              + reason
              + (tail.isEmpty() ? "" : "; last lines: " + tail));
      return "noted: " + reason;
    }
    String why =
        report.purpose().mode()
            + " stopped on the machine: "
            + reason
            + (tail.isEmpty() ? "" : " (last lines: " + tail + ")");
    try {
      machines.fail(m.get().id(), why, BY);
    } catch (MachineRefusedException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    LOG.warning(m.get().id().value() + ": " + why);
    return "failed: " + m.get().id().value() + " is " + m.get().state().failedState().label();
  }

  /** The boot environment is up with a console for the admin: the machine is in rescue mode. */
  private String rescued(BootReport report) {
    Machine m = expect(report, MachineState.ENTERING_RESCUE_MODE);
    try {
      machines.complete(m.id(), "rescue mode: the boot environment's console is open", BY);
    } catch (MachineRefusedException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    return m.id().value() + " is in rescue mode: log in on its console";
  }

  @Override
  public void progress(String mac, String boot, List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    String key = byMac(mac).map(x -> x.id().value()).orElse(mac);
    bootLogs.append(key, boot, lines, Instant.now());
  }

  /** Returns the last lines the machine's boot environment logged, if any. */
  Optional<BootLog> bootLog(String key) {
    return bootLogs.get(key);
  }

  /**
   * Tests a Ready (or Deployed, or failed-testing) machine again with the chosen tests: names or
   * tags; empty for those of commissioning.
   */
  Machine test(MachineId id, List<String> tests, String by) {
    TestChoice choice = new TestChoice(id.value(), tests, Instant.now());
    machines
        .machine(id)
        .orElseThrow(() -> new java.util.NoSuchElementException("no machine " + id.value()));
    Optional<String> refused = machines.refusal(id, MachineOperation.TEST);
    if (refused.isPresent()) {
      throw new MachineRefusedException(
          id, machines.machine(id).orElseThrow().state(), MachineOperation.TEST, refused.get());
    }
    store.write(
        "keep the tests chosen for " + id.value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(TestChoice.MAP).put(id.value(), choice);
          return null;
        });
    return machines.operate(
        id,
        MachineOperation.TEST,
        "test: " + (tests.isEmpty() ? "the commissioning tests" : String.join(", ", tests)),
        by);
  }

  private String tested(BootReport report, JsonObject body) {
    Machine m =
        byMac(report.mac())
            .orElseThrow(() -> new IllegalArgumentException(report.mac() + " is no machine here"));
    MachineState expected =
        report.purpose() == BootPurpose.COMMISSION
            ? MachineState.COMMISSIONING
            : MachineState.TESTING;
    if (m.state() != expected) {
      throw new IllegalArgumentException(
          m.id().value() + " is " + m.state().label() + ", not " + expected.label());
    }
    JsonObject inventory = body.getJsonObject("inventory");
    JsonArray results = body.getJsonArray("results");
    if (inventory == null || results == null) {
      throw new IllegalArgumentException(
          "a test report has an 'inventory' object and a 'results' array");
    }
    Inventory.check(inventory, report.mac());
    List<JsonObject> failed =
        results.stream()
            .map(o -> o instanceof JsonObject j ? j : new JsonObject())
            .filter(r -> r.getInteger("exitStatus", -1) != 0)
            .toList();
    boolean passed = failed.isEmpty() && !results.isEmpty();
    keep(m.id(), report, inventory, results, passed);
    String what = report.purpose() == BootPurpose.COMMISSION ? "commissioning" : "testing";
    try {
      if (passed) {
        machines.complete(
            m.id(),
            what + " passed: " + results.size() + " tests, " + Inventory.summary(inventory),
            BY);
        LOG.info(() -> m.id().value() + ": " + what + " passed (" + results.size() + " tests)");
        return what + " passed: " + m.id().value() + " is Ready";
      }
      String reason =
          results.isEmpty()
              ? what + " ran no test"
              : what
                  + " failed: "
                  + failed.stream()
                      .map(
                          r ->
                              r.getString("name", "?")
                                  + " (exit "
                                  + r.getInteger("exitStatus", -1)
                                  + ")")
                      .reduce((a, b) -> a + ", " + b)
                      .orElse("")
                  + "; "
                  + lastLine(failed.get(0).getString("output", ""));
      machines.fail(m.id(), reason, BY);
      LOG.warning(m.id().value() + ": " + reason);
      return reason;
    } catch (MachineRefusedException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  private Machine expect(BootReport report, MachineState state) {
    Machine m =
        byMac(report.mac())
            .orElseThrow(() -> new IllegalArgumentException(report.mac() + " is no machine here"));
    if (m.state() != state) {
      throw new IllegalArgumentException(
          m.id().value() + " is " + m.state().label() + ", not " + state.label());
    }
    return m;
  }

  private String deployed(BootReport report, JsonObject body) {
    Machine m = expect(report, MachineState.DEPLOYING);
    DeploymentRecord d =
        deployment(m.id())
            .orElseThrow(() -> new IllegalArgumentException(m.id().value() + " has no deployment"));
    String received = body.getString("sha256Received", "");
    String onDisk = body.getString("sha256OnDisk", "");
    String outcome;
    try {
      if (d.sha256().equals(received) && d.sha256().equals(onDisk)) {
        String seeded = body.getString("cloudInitSeeded", "");
        outcome =
            d.image()
                + " written to "
                + body.getString("disk", "?")
                + " and read back ("
                + onDisk
                + ")"
                + (seeded.isEmpty()
                    ? "; the image has no cloud-init to seed"
                    : "; cloud-init on " + seeded + " reads its user data from the appliance");
        machines.complete(m.id(), outcome, BY);
      } else {
        outcome =
            body.containsKey("error")
                ? "deployment failed: " + body.getString("error")
                : "the image did not check out: expected "
                    + d.sha256()
                    + ", received "
                    + (received.isEmpty() ? "nothing" : received)
                    + ", on disk "
                    + (onDisk.isEmpty() ? "nothing" : onDisk)
                    + " (its first MiB was wiped)";
        machines.fail(m.id(), outcome, BY);
      }
    } catch (MachineRefusedException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    DeploymentRecord done = d.withOutcome(outcome, report.at());
    store.write(
        "keep the deployment of " + m.id().value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(DeploymentRecord.MAP).put(m.id().value(), done);
          return null;
        });
    LOG.info(() -> m.id().value() + ": " + outcome);
    return outcome;
  }

  private String erased(BootReport report, JsonObject body) {
    Machine m = expect(report, MachineState.DISK_ERASING);
    JsonArray disks = body.getJsonArray("disks", new JsonArray());
    List<String> dirty =
        disks.stream()
            .map(o -> (JsonObject) o)
            .filter(d -> d.getLong("nonZeroBytes", -1L) != 0)
            .map(d -> d.getString("name", "?"))
            .toList();
    String outcome =
        dirty.isEmpty() && !disks.isEmpty()
            ? body.getString("mode", "quick")
                + " erase of "
                + disks.size()
                + " disks checked: zeroes"
            : disks.isEmpty() ? "no disk was erased" : "erasure did not leave zeroes on " + dirty;
    try {
      if (dirty.isEmpty() && !disks.isEmpty()) {
        machines.complete(m.id(), outcome, BY);
      } else {
        machines.fail(m.id(), outcome, BY);
      }
    } catch (MachineRefusedException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    deployment(m.id())
        .ifPresent(
            d ->
                store.write(
                    "keep the erasure of " + m.id().value(),
                    WritePriority.ROUTINE,
                    w -> {
                      w.map(DeploymentRecord.MAP)
                          .put(m.id().value(), d.withOutcome(outcome, report.at()));
                      return null;
                    }));
    LOG.info(() -> m.id().value() + ": " + outcome);
    return outcome;
  }

  private static String lastLine(String output) {
    String[] lines = output.strip().split("\n");
    return lines.length == 0 ? "" : lines[lines.length - 1];
  }

  private void keep(
      MachineId id, BootReport report, JsonObject inventory, JsonArray results, boolean passed) {
    HardwareRecord r =
        new HardwareRecord(
            id.value(),
            report.purpose().mode(),
            inventory.encode(),
            results.encode(),
            passed,
            report.at());
    store.write(
        "keep the hardware of " + id.value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(HardwareRecord.MAP).put(id.value(), r);
          return null;
        });
  }

  /** Returns every machine's last report, by machine. */
  List<HardwareRecord> reported() {
    return store.read(
        r ->
            r.map(HardwareRecord.MAP).entries().stream()
                .map(Map.Entry::getValue)
                .sorted(java.util.Comparator.comparing(HardwareRecord::machine))
                .toList());
  }

  /** Returns the machine's state as the API names it, or "deleted". */
  String state(String machine) {
    return machines.machine(MachineId.of(machine)).map(m -> m.state().apiName()).orElse("deleted");
  }

  /** Returns what the boot environment last reported of the machine, if it ever did. */
  Optional<HardwareRecord> hardware(MachineId id) {
    return Optional.ofNullable(store.read(r -> r.map(HardwareRecord.MAP).get(id.value())));
  }
}
