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
  record Outcome(PowerState power, String error, String presented, String done) {}

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
          }
          default -> throw new IllegalArgumentException(op + " is not a BMC operation");
        }
        return new Outcome(c.power(), "", "", done);
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

  private BmcCredentials credentials(Machine m) throws BmcException {
    byte[] sealed =
        secrets
            .get(m.bmc().credentialRef())
            .orElseThrow(
                () ->
                    new BmcException(
                        BmcException.Kind.CREDENTIALS,
                        "no credentials are stored for the BMC of machine "
                            + m.id()
                            + ": add them again",
                        null));
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
    } finally {
      Arrays.fill(sealed, (byte) 0);
    }
  }
}
