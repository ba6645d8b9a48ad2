package io.bulwark.machines.internal;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcDriver;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.security.SecretStore;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Carries out BMC operations in the background: one pool of threads for all BMCs, at most {@link
 * #PER_BMC} requests at a time to any one BMC (BMCs are slow and fragile), and each operation
 * bounded by its driver's timeouts, so one BMC that hangs holds one thread for a while and delays
 * no other. The result (power, error, the fingerprint of an unpinned certificate) goes back to the
 * registry, which stores it with the history entry.
 */
final class BmcWork {
  static final int PER_BMC = 2;
  static final java.time.Duration SETTLE = java.time.Duration.ofSeconds(30);
  private static final System.Logger LOG = System.getLogger(BmcWork.class.getName());

  /** What an operation ended with. */
  record Outcome(
      PowerState power,
      String error,
      String presented,
      String done,
      io.bulwark.api.bmc.BmcInventory inventory) {
    Outcome(PowerState power, String error, String presented, String done) {
      this(power, error, presented, done, null);
    }
  }

  /** What one poll of a BMC read: power, sensors and the newest event log entries, or the error. */
  record Poll(
      PowerState power,
      java.util.List<io.bulwark.api.bmc.BmcSensor> sensors,
      java.util.List<io.bulwark.api.bmc.BmcLogEntry> events,
      String error,
      boolean retryable,
      long atMillis,
      io.bulwark.api.bmc.BmcInventory inventory) {
    Poll(
        PowerState power,
        java.util.List<io.bulwark.api.bmc.BmcSensor> sensors,
        java.util.List<io.bulwark.api.bmc.BmcLogEntry> events,
        String error,
        boolean retryable,
        long atMillis) {
      this(power, sensors, events, error, retryable, atMillis, null);
    }
  }

  /** Consecutive failures after which a BMC is left alone for {@link #OPEN_FOR}. */
  static final int TRIP_AFTER = 3;

  static final java.time.Duration OPEN_FOR = java.time.Duration.ofMinutes(5);

  private final Map<String, long[]> breakers = new ConcurrentHashMap<>();

  /**
   * Returns true if the circuit of {@code m}'s BMC is open: it failed {@link #TRIP_AFTER} times in
   * a row, and is not asked again until {@link #OPEN_FOR} has passed since the last failure.
   */
  boolean resting(Machine m) {
    long[] b = breakers.get(key(m));
    return b != null
        && b[0] >= TRIP_AFTER
        && System.currentTimeMillis() - b[1] < OPEN_FOR.toMillis();
  }

  private void record(Machine m, boolean failed) {
    if (failed) {
      breakers.compute(
          key(m), (k, b) -> new long[] {(b == null ? 0 : b[0]) + 1, System.currentTimeMillis()});
    } else {
      breakers.remove(key(m));
    }
  }

  private static String key(Machine m) {
    return m.bmc().address() + ":" + m.bmc().port();
  }

  /**
   * Reads {@code m}'s BMC (power, sensors, event log) in the background; hands the poll to {@code
   * done}.
   */
  void poll(Machine m, int events, Consumer<Poll> done) {
    poll(m, events, false, done);
  }

  /** As {@link #poll(Machine, int, Consumer)}, also reading the hardware inventory if asked. */
  void poll(Machine m, int events, boolean inventory, Consumer<Poll> done) {
    pool.execute(
        () -> {
          Semaphore gate = permits.computeIfAbsent(key(m), k -> new Semaphore(PER_BMC));
          if (!gate.tryAcquire()) {
            return; // the BMC is busy with an operation or the last poll: skip this round
          }
          Poll poll;
          try {
            poll = read(m, events, inventory);
          } finally {
            gate.release();
          }
          record(m, !poll.error().isEmpty() && poll.retryable());
          done.accept(poll);
        });
  }

  private Poll read(Machine m, int events, boolean withInventory) {
    BmcDriver driver = drivers.get(m.bmc().protocol());
    long now = System.currentTimeMillis();
    if (driver == null) {
      return new Poll(
          m.power(),
          java.util.List.of(),
          java.util.List.of(),
          "no BMC driver for " + m.bmc().protocol().apiName() + " is installed",
          false,
          now);
    }
    try (BmcCredentials credentials = credentials(m);
        BmcConnection c = driver.connect(m.bmc(), credentials)) {
      io.bulwark.api.bmc.BmcInventory inventory = null;
      if (withInventory) {
        try {
          inventory = c.inventory();
        } catch (BmcException e) {
          if (e.retryable()) {
            throw e;
          }
          // UNSUPPORTED or unreadable: the machine has no inventory until a probe reads one
        }
      }
      return new Poll(c.power(), c.sensors(), c.eventLog(events), "", false, now, inventory);
    } catch (BmcException e) {
      return new Poll(
          PowerState.UNKNOWN,
          java.util.List.of(),
          java.util.List.of(),
          e.getMessage(),
          e.retryable(),
          now);
    } catch (RuntimeException e) {
      return new Poll(
          PowerState.UNKNOWN,
          java.util.List.of(),
          java.util.List.of(),
          "reading the BMC failed inside Bulwark: " + e,
          false,
          now);
    }
  }

  private final Map<BmcProtocol, BmcDriver> drivers = new ConcurrentHashMap<>();
  private final Map<String, Semaphore> permits = new ConcurrentHashMap<>();
  private final SecretStore secrets;
  private final ExecutorService pool;

  BmcWork(SecretStore secrets, int threads) {
    this.secrets = secrets;
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "bulwark-bmc");
              t.setDaemon(true);
              return t;
            });
  }

  void bind(BmcDriver driver) {
    drivers.put(driver.protocol(), driver);
  }

  void unbind(BmcDriver driver) {
    drivers.remove(driver.protocol(), driver);
  }

  Optional<BmcDriver> driver(BmcProtocol protocol) {
    return Optional.ofNullable(drivers.get(protocol));
  }

  void close() {
    pool.shutdownNow();
  }

  /**
   * Runs {@code op} (with {@code device}/{@code once} for set-boot) on {@code m}'s BMC in the
   * background and hands the outcome to {@code done}.
   */
  void submit(
      Machine m, MachineOperation op, BootDevice device, boolean once, Consumer<Outcome> done) {
    pool.execute(
        () -> {
          Semaphore gate =
              permits.computeIfAbsent(
                  m.bmc().address() + ":" + m.bmc().port(), k -> new Semaphore(PER_BMC));
          Outcome outcome;
          try {
            gate.acquire();
            try {
              outcome = perform(m, op, device, once);
            } finally {
              gate.release();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          } catch (RuntimeException e) {
            LOG.log(
                Level.WARNING,
                "BMC operation " + op.apiName() + " on machine " + m.id() + " failed",
                e);
            outcome =
                new Outcome(
                    PowerState.UNKNOWN, "the BMC operation failed inside Bulwark: " + e, "", "");
          }
          done.accept(outcome);
        });
  }

  private Outcome perform(Machine m, MachineOperation op, BootDevice device, boolean once) {
    BmcEndpoint endpoint = m.bmc();
    BmcDriver driver = drivers.get(endpoint.protocol());
    if (driver == null) {
      return new Outcome(
          m.power(),
          "no BMC driver for " + endpoint.protocol().apiName() + " is installed",
          "",
          "");
    }
    try {
      if (endpoint.pinnedSha256().isEmpty() && endpoint.protocol() == BmcProtocol.REDFISH) {
        String presented = driver.presentedFingerprint(endpoint);
        return new Outcome(
            m.power(),
            "BMC "
                + endpoint
                + " presented a certificate that is not pinned yet (SHA-256 "
                + presented
                + "): an admin compares it with the BMC's own and approves it; nothing else is sent"
                + " to the BMC until then",
            presented,
            op == MachineOperation.PROBE ? "certificate shown for approval" : "");
      }
      try (BmcCredentials credentials = credentials(m);
          BmcConnection c = driver.connect(endpoint, credentials)) {
        String done;
        io.bulwark.api.bmc.BmcInventory inventory = null;
        switch (op) {
          case POWER_ON -> done = power(c, PowerAction.ON);
          case POWER_OFF -> done = power(c, PowerAction.OFF);
          case POWER_CYCLE -> done = power(c, PowerAction.CYCLE);
          case SOFT_OFF -> done = power(c, PowerAction.SOFT_OFF);
          case SET_BOOT -> {
            c.setNextBoot(device, once);
            done =
                "next boot: "
                    + device.name().toLowerCase(java.util.Locale.ROOT)
                    + (once ? ", once" : ", from now on");
          }
          case PROBE -> {
            var id = c.identity();
            done =
                "probed: "
                    + String.join(" ", id.manufacturer(), id.model()).strip()
                    + (id.serial().isEmpty() ? "" : ", serial " + id.serial());
            try {
              inventory = c.inventory();
              done += ", " + inventory.components().size() + " hardware components";
            } catch (BmcException e) {
              done +=
                  e.kind() == BmcException.Kind.UNSUPPORTED
                      ? ", no hardware inventory from this BMC"
                      : "; the hardware inventory could not be read: " + e.getMessage();
            }
          }
          default -> throw new IllegalArgumentException(op + " is not a BMC operation");
        }
        return new Outcome(c.power(), "", "", done, inventory);
      }
    } catch (BmcException e) {
      return new Outcome(
          e.kind() == BmcException.Kind.CERTIFICATE ? m.power() : PowerState.UNKNOWN,
          e.getMessage(),
          e.fingerprint(),
          "");
    }
  }

  /**
   * Carries out {@code action}, then reads the power until it shows the action's end (a BMC reports
   * the new state a while after it accepted the reset) or {@link #SETTLE} has passed.
   */
  private static String power(BmcConnection c, PowerAction action) throws BmcException {
    c.power(action);
    String name = action.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    PowerState wanted =
        action == PowerAction.ON || action == PowerAction.CYCLE ? PowerState.ON : PowerState.OFF;
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (c.power() != wanted) {
      if (System.nanoTime() > deadline) {
        return name
            + " accepted by the BMC; the power did not read "
            + wanted.apiName()
            + " within "
            + SETTLE.toSeconds()
            + " s";
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return name + " accepted by the BMC";
      }
    }
    return name + " done: the power is " + wanted.apiName();
  }

  /**
   * The BMC credentials read from the secret store, by reference: read (and audited) once per
   * machine while the appliance runs, not at every poll; in memory only, dropped when the machine
   * is deleted.
   */
  private final Map<String, byte[]> credentials = new ConcurrentHashMap<>();

  /** Drops the credentials kept for {@code credentialRef} (the machine was deleted). */
  void forget(String credentialRef) {
    byte[] gone = credentials.remove(credentialRef);
    if (gone != null) {
      Arrays.fill(gone, (byte) 0);
    }
  }

  private BmcCredentials credentials(Machine m) throws BmcException {
    byte[] kept = credentials.get(m.bmc().credentialRef());
    byte[] sealed = kept != null ? kept : readCredentials(m);
    credentials.putIfAbsent(m.bmc().credentialRef(), sealed);
    return decode(m, sealed);
  }

  private byte[] readCredentials(Machine m) throws BmcException {
    return secrets
        .get(m.bmc().credentialRef())
        .orElseThrow(
            () ->
                new BmcException(
                    BmcException.Kind.CREDENTIALS,
                    "no credentials are stored for the BMC of machine "
                        + m.id()
                        + ": add them again",
                    null));
  }

  private static BmcCredentials decode(Machine m, byte[] sealed) throws BmcException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(sealed))) {
      String user = in.readUTF();
      byte[] pw = new byte[in.readInt()];
      in.readFully(pw);
      CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(pw));
      char[] password = new char[chars.remaining()];
      chars.get(password);
      Arrays.fill(pw, (byte) 0);
      Arrays.fill(chars.array(), '\0');
      try {
        return new BmcCredentials(user, password);
      } finally {
        Arrays.fill(password, '\0');
      }
    } catch (IOException e) {
      throw new BmcException(
          BmcException.Kind.CREDENTIALS,
          "the stored credentials of machine " + m.id() + " cannot be read: add them again",
          e);
    }
  }
}
