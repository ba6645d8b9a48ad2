package io.bulwark.e2e;

import static io.bulwark.e2e.Runs.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.bulwark.testing.receivers.TestCertificates;
import io.bulwark.testing.redfish.RedfishMockupServer;
import io.bulwark.testing.redfish.RedfishMockups;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Machines that PXE-boot from the appliance, end to end: a network namespace holds a bridge with a
 * tap per QEMU machine and one end of a veth pair whose other end is the appliance's provisioning
 * interface. A BIOS machine (SeaBIOS with Debian's iPXE ROM on an e1000) and a UEFI machine (OVMF
 * on a virtio NIC without option ROM, whose own PXE client fetches ipxe.efi over the appliance's
 * TFTP) get leases from its DHCP server, chain to iPXE, fetch their scripts over HTTP boot, boot
 * the boot environment (Debian's kernel, the project's BusyBox initramfs), and report: each appears
 * as a New machine whose inventory matches what QEMU gave it. The BIOS machine is then
 * commissioned: it boots again, runs the hardware tests and becomes Ready with their results. QEMU
 * runs with TCG (no KVM here); root is needed for the namespace and the DHCP and TFTP ports, as on
 * the appliance.
 */
class PxeBootIT {
  private static final String NS = "bwk-pxe";
  private static final String HOST_IF = "bhpxe";
  private static final String PEER_IF = "bcpxe";
  private static final Path BOOTENV = Path.of("../bootenv/target/bootenv");
  private static final Path OVMF_CODE = Path.of("/usr/share/OVMF/OVMF_CODE_4M.fd");
  private static final Path OVMF_VARS = Path.of("/usr/share/OVMF/OVMF_VARS_4M.fd");

  private final List<Process> vms = new ArrayList<>();
  private final List<AutoCloseable> closeLater = new ArrayList<>();
  private Path work;

  @BeforeEach
  void network() throws Exception {
    assumeThat(root()).as("root, for the network namespace and the DHCP and TFTP ports").isTrue();
    assertThat(BOOTENV.resolve("vmlinuz"))
        .as("the boot environment (appliance-image/bootenv)")
        .exists();
    cleanUp();
    sh("ip netns add " + NS);
    sh("ip link add " + HOST_IF + " type veth peer name " + PEER_IF);
    sh("ip link set " + PEER_IF + " netns " + NS);
    sh("ip addr add 10.79.0.1/24 dev " + HOST_IF + " && ip link set " + HOST_IF + " up");
    String in = "ip netns exec " + NS + " ";
    sh(in + "ip link set lo up");
    sh(in + "ip link add br0 type bridge && " + in + "ip link set br0 up");
    sh(in + "ip link set " + PEER_IF + " master br0 && " + in + "ip link set " + PEER_IF + " up");
    for (String tap : List.of("tap0", "tap1")) {
      sh(in + "ip tuntap add dev " + tap + " mode tap");
      sh(in + "ip link set " + tap + " master br0 && " + in + "ip link set " + tap + " up");
    }
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : closeLater) {
      c.close();
    }
    for (Process vm : vms) {
      vm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (root()) {
      cleanUp();
    }
  }

  private static void cleanUp() throws Exception {
    new ProcessBuilder("sh", "-c", "ip netns del " + NS + "; ip link del " + HOST_IF)
        .redirectErrorStream(true)
        .start()
        .waitFor(30, TimeUnit.SECONDS);
  }

  @Test
  void biosAndUefiMachinesEnlistOverPxeAndTheBiosOneIsCommissionedToReady() throws Exception {
    work = RunningAppliance.workDir("pxe-boot");
    Path env = work.resolve("data/pxe/boot/env");
    Files.createDirectories(
        env, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.copy(
        BOOTENV.resolve("vmlinuz"), env.resolve("vmlinuz"), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        BOOTENV.resolve("initrd.img"),
        env.resolve("initrd.img"),
        StandardCopyOption.REPLACE_EXISTING);
    Map<String, String> settings = new HashMap<>();
    settings.put("BULWARK_SIM_NODES", "8");
    settings.put("BULWARK_SIM_SCENARIO", "none");
    settings.put("BULWARK_PXE_ADDRESS", "10.79.0.1");
    settings.put("BULWARK_PXE_INTERFACE", HOST_IF);
    settings.put("BULWARK_PXE_SUBNET", "10.79.0.0/24");
    settings.put("BULWARK_PXE_RANGE", "10.79.0.100-10.79.0.150");
    settings.put("BULWARK_PXE_HTTP_PORT", Integer.toString(RunningAppliance.freePort()));
    try (RunningAppliance bulwark = RunningAppliance.demo(work, settings)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      bulwark.login();
      assertThat(bulwark.console()).contains("Provisioning plane up");

      Path biosDisk = disk("bios.img", 64);
      // The BIOS machine's BMC: a Redfish service whose resets drive its QEMU process, so that
      // power and boot override go through the appliance's real BMC path.
      TestCertificates tls = TestCertificates.create(work.resolve("bmc-tls"));
      RedfishMockupServer bmc =
          RedfishMockupServer.start(
              RedfishMockups.mockup("public-rackmount1"), tls, "root", "calvin-pxe");
      closeLater.add(bmc);
      Vm biosVm = new Vm("vm-bios", () -> biosArgs(biosDisk), bmc);
      // Racked and switched on by hand: it enlists by itself.
      Process bios = biosVm.start();
      Process uefi = uefi(disk("uefi.img", 96), "vm-uefi-1.log");

      JsonObject biosMachine =
          awaitMachine(bulwark, "m-525400b10501", "new", bios, biosVm.log(), 420);
      assertThat(biosMachine.getJsonArray("macs").getList()).contains("52:54:00:b1:05:01");
      JsonObject hw = get(bulwark, "/api/v1/machines/m-525400b10501/hardware");
      JsonObject inv = hw.getJsonObject("inventory");
      assertThat(hw.getString("reportedBy")).isEqualTo("enlist");
      assertThat(inv.getJsonObject("cpu").getInteger("count")).isEqualTo(2);
      // QEMU's -m 512: the kernel reports what is left after its own reservations.
      assertThat(inv.getLong("memoryBytes")).isBetween(400L << 20, 512L << 20);
      assertThat(disk(inv, "vda").getLong("bytes")).isEqualTo(64L << 20);
      assertThat(nic(inv, "52:54:00:b1:05:01").getString("driver")).isEqualTo("e1000");
      assertThat(inv.getInteger("nvidiaGpus")).isZero();
      assertThat(inv.getJsonObject("system").getString("vendor")).isEqualTo("QEMU");

      JsonObject uefiMachine =
          awaitMachine(bulwark, "m-525400b10502", "new", uefi, "vm-uefi-1.log", 600);
      assertThat(uefiMachine.getJsonArray("macs").getList()).contains("52:54:00:b1:05:02");
      JsonObject uefiInv =
          get(bulwark, "/api/v1/machines/m-525400b10502/hardware").getJsonObject("inventory");
      assertThat(uefiInv.getJsonObject("cpu").getInteger("count")).isEqualTo(1);
      assertThat(disk(uefiInv, "vda").getLong("bytes")).isEqualTo(96L << 20);
      assertThat(nic(uefiInv, "52:54:00:b1:05:02").getString("driver")).isEqualTo("virtio_net");
      assertThat(Files.readString(work.resolve("vm-uefi-1.log"), StandardCharsets.ISO_8859_1))
          .as("the UEFI machine's firmware PXE-booted iPXE")
          .contains("iPXE");
      String metrics = bulwark.get("/metrics").body();
      assertThat(metrics).contains("bulwark_pxe_tftp_transfers_total{outcome=\"completed\"}");
      assertThat(metric(metrics, "bulwark_pxe_tftp_transfers_total{outcome=\"completed\"}"))
          .isPositive();
      assertThat(metric(metrics, "bulwark_pxe_http_reports_total{outcome=\"taken\"}")).isEqualTo(2);

      // Both machines powered themselves off after enlisting.
      assertThat(bios.waitFor(60, TimeUnit.SECONDS)).as("the BIOS machine powered off").isTrue();
      JsonObject bootLog = get(bulwark, "/api/v1/machines/m-525400b10501/boot-log");
      assertThat(bootLog.getJsonArray("lines").getList())
          .as("the boot environment's log lines reached the appliance")
          .anySatisfy(l -> assertThat((String) l).contains("the appliance took the enlist report"));

      // The admin gives it its BMC (pinned by the fingerprint the site's records hold); from now
      // on the appliance powers it for every boot.
      String fingerprint =
          java.util.HexFormat.of()
              .formatHex(
                  java.security.MessageDigest.getInstance("SHA-256")
                      .digest(tls.serverCertificate().getEncoded()));
      HttpResponse<String> noPassword =
          bulwark.send(
              "PUT",
              bulwark.baseUrl() + "/api/v1/machines/m-525400b10501/bmc",
              new JsonObject().put("address", "127.0.0.1").put("username", "root").encode());
      assertThat(noPassword.statusCode()).as(noPassword.body()).isEqualTo(400);
      ChromeDriver bmcBrowser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = new WebDriverWait(bmcBrowser, Duration.ofSeconds(30));
        wait.ignoring(StaleElementReferenceException.class);
        logIn(bulwark, bmcBrowser, wait);
        bmcBrowser.get(bulwark.baseUrl() + "/#/machine/m-525400b10501");
        wait.until(d -> d.findElement(By.id("bmc-address"))).sendKeys("127.0.0.1");
        bmcBrowser.findElement(By.id("bmc-port")).sendKeys(Integer.toString(bmc.port()));
        bmcBrowser.findElement(By.id("bmc-username")).sendKeys("root");
        bmcBrowser.findElement(By.id("bmc-password")).sendKeys("calvin-pxe");
        bmcBrowser.findElement(By.id("bmc-sha256")).sendKeys(fingerprint);
        bmcBrowser.findElement(By.id("bmc-submit")).click();
        wait.until(
            d ->
                d.findElement(By.id("machine-facts"))
                    .getText()
                    .contains("redfish 127.0.0.1:" + bmc.port()));
        assertThat(bmcBrowser.findElement(By.id("machine-facts")).getText()).contains(fingerprint);
        Files.write(
            work.resolve("machine-bmc-page.png"),
            ((TakesScreenshot) bmcBrowser).getScreenshotAs(OutputType.BYTES));
      } finally {
        bmcBrowser.quit();
      }
      assertThat(bulwark.get("/api/v1/machines/m-525400b10501").body())
          .doesNotContain("calvin-pxe");

      HttpResponse<String> commission =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/machines/m-525400b10501/commission",
              new JsonObject().put("reason", "first commissioning").encode());
      assertThat(commission.statusCode()).as(commission.body()).isBetween(200, 202);
      Process again = biosVm.awaitStarted(60);
      JsonObject ready = awaitMachine(bulwark, "m-525400b10501", "ready", again, biosVm.log(), 420);
      assertThat(bmc.requests())
          .as("the boot override and the power went through the BMC")
          .anyMatch(r -> r.startsWith("PATCH /redfish/v1/Systems/437XR1138R2"))
          .anyMatch(r -> r.startsWith("POST /redfish/v1/Systems/437XR1138R2/Actions"));
      assertThat(
              bmc.get("/redfish/v1/Systems/437XR1138R2")
                  .getJsonObject("Boot")
                  .getString("BootSourceOverrideTarget"))
          .isEqualTo("Pxe");
      JsonArray history =
          get(bulwark, "/api/v1/machines/m-525400b10501/history").getJsonArray("history");
      assertThat(history.stream().map(e -> ((JsonObject) e).getString("operation")))
          .contains("set-bmc", "set-boot done");
      assertThat(ready.getString("state")).isEqualTo("ready");
      JsonObject commissioned = get(bulwark, "/api/v1/machines/m-525400b10501/hardware");
      assertThat(commissioned.getString("reportedBy")).isEqualTo("commission");
      assertThat(commissioned.getBoolean("passed")).isTrue();
      JsonArray tests = commissioned.getJsonArray("tests");
      assertThat(tests.stream().map(t -> ((JsonObject) t).getString("name")))
          .containsExactlyInAnyOrder("disk-read", "gpu", "memory", "network");
      for (Object t : tests) {
        JsonObject test = (JsonObject) t;
        assertThat(test.getInteger("exitStatus")).as(test.encodePrettily()).isZero();
      }
      assertThat(test(tests, "gpu").getString("output")).contains("no NVIDIA GPU");
      assertThat(test(tests, "disk-read").getString("output")).contains("vda: 64 MiB read");
      assertThat(again.waitFor(60, TimeUnit.SECONDS))
          .as("powered off after commissioning")
          .isTrue();

      // Testing again with one chosen test: only that one runs.
      HttpResponse<String> retest =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/provisioning/machines/m-525400b10501/test",
              new JsonObject().put("tests", new JsonArray().add("disk-read")).encode());
      assertThat(retest.statusCode()).as(retest.body()).isEqualTo(200);
      Process testing = biosVm.awaitStarted(60);
      awaitMachine(bulwark, "m-525400b10501", "ready", testing, biosVm.log(), 420);
      JsonObject tested = get(bulwark, "/api/v1/machines/m-525400b10501/hardware");
      assertThat(tested.getString("reportedBy")).isEqualTo("test");
      assertThat(tested.getJsonArray("tests").stream().map(t -> ((JsonObject) t).getString("name")))
          .containsExactly("disk-read");
      assertThat(testing.waitFor(60, TimeUnit.SECONDS)).as("powered off after testing").isTrue();

      // Deployment: an image signed as an admin signs one (openssl, P-384, SHA-384), written to
      // the disk and checked there; the machine then boots it from the disk.
      // The admin installs the site's public key, then uploads the image with its signature.
      Path images = work.resolve("signed");
      Path keys = work.resolve("data/keys");
      Files.createDirectories(images);
      Files.createDirectories(keys);
      byte[] tinyOs = bootableImage(work);
      Files.write(images.resolve("tiny-os.img"), tinyOs);
      sh("openssl ecparam -name secp384r1 -genkey -noout -out " + work.resolve("signing.pem"));
      sh(
          "openssl ec -in "
              + work.resolve("signing.pem")
              + " -pubout -out "
              + keys.resolve("site.pem"));
      sh(
          "openssl dgst -sha384 -sign "
              + work.resolve("signing.pem")
              + " -out "
              + images.resolve("tiny-os.img.sig")
              + " "
              + images.resolve("tiny-os.img"));
      String signature =
          java.util.Base64.getEncoder()
              .encodeToString(Files.readAllBytes(images.resolve("tiny-os.img.sig")));
      HttpResponse<String> forged =
          bulwark.upload(
              "/api/v1/images/tiny-os",
              images.resolve("tiny-os.img"),
              "Bulwark-Signature",
              java.util.Base64.getEncoder().encodeToString(new byte[70]));
      assertThat(forged.statusCode()).as(forged.body()).isEqualTo(400);
      assertThat(forged.body()).contains("matches no trusted key");
      HttpResponse<String> uploaded =
          bulwark.upload(
              "/api/v1/images/tiny-os",
              images.resolve("tiny-os.img"),
              "Bulwark-Signature",
              signature);
      assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
      assertThat(new JsonObject(uploaded.body()).getString("signer")).isEqualTo("site.pem");
      JsonObject image = get(bulwark, "/api/v1/images").getJsonArray("images").getJsonObject(0);
      assertThat(image.getBoolean("deployable")).as(image.encodePrettily()).isTrue();
      HttpResponse<String> deploy =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/provisioning/machines/m-525400b10501/deploy",
              new JsonObject().put("image", "tiny-os").put("userData", USER_DATA).encode());
      assertThat(deploy.statusCode()).as(deploy.body()).isEqualTo(200);
      Process deploying = biosVm.awaitStarted(60);
      awaitMachine(bulwark, "m-525400b10501", "deployed", deploying, biosVm.log(), 420);
      // It restarts by itself, tries the network (the appliance tells it to boot its disk) and
      // boots the deployed image.
      awaitSerial(biosVm.log(), "BULWARK-DEPLOYED-IMAGE", 180);
      byte[] written = Files.readAllBytes(biosDisk);
      // The boot area is the image's; its ext4 partition now also points cloud-init at the
      // appliance, where the deployed OS reads this deployment's user data.
      assertThat(java.util.Arrays.copyOf(written, 1 << 20))
          .isEqualTo(java.util.Arrays.copyOf(tinyOs, 1 << 20));
      Path partition = work.resolve("deployed-root.img");
      Files.write(partition, java.util.Arrays.copyOfRange(written, 1 << 20, 4 << 20));
      String datasource =
          run(
              "debugfs",
              "-R",
              "cat /etc/cloud/cloud.cfg.d/99-bulwark-datasource.cfg",
              partition.toString());
      java.util.regex.Matcher seed =
          java.util.regex.Pattern.compile(
                  "seedfrom: (http://10\\.79\\.0\\.1:[0-9]+/metadata/[A-Za-z0-9_-]{43}/)")
              .matcher(datasource);
      assertThat(seed.find()).as(datasource).isTrue();
      java.net.http.HttpClient plain = java.net.http.HttpClient.newHttpClient();
      String userData =
          plain
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(seed.group(1) + "user-data"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(userData).isEqualTo(USER_DATA);
      String metaData =
          plain
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(seed.group(1) + "meta-data"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metaData)
          .contains("instance-id: m-525400b10501-")
          .contains("local-hostname: node-525400b10501");
      // Release with a secure erase: every byte of the disk is zero afterwards.
      HttpResponse<String> release =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/provisioning/machines/m-525400b10501/release",
              new JsonObject().put("erase", "secure").encode());
      assertThat(release.statusCode()).as(release.body()).isEqualTo(200);
      // Its BMC power-cycles it out of the deployed OS into the boot environment.
      Process erasing = biosVm.awaitRestarted(deploying, 60);
      awaitMachine(bulwark, "m-525400b10501", "ready", erasing, biosVm.log(), 420);
      assertThat(erasing.waitFor(60, TimeUnit.SECONDS)).isTrue();
      byte[] erased = Files.readAllBytes(biosDisk);
      int nonZero = 0;
      for (byte b : erased) {
        nonZero += b == 0 ? 0 : 1;
      }
      assertThat(nonZero).as("non-zero bytes left on the released disk").isZero();

      // The Provisioning page shows it all, as an operator sees it.
      ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.ignoring(StaleElementReferenceException.class);
        logIn(bulwark, browser, wait);
        wait.until(d -> d.findElement(By.cssSelector("#nav a[data-nav='provisioning']"))).click();
        WebElement imageRow =
            wait.until(d -> d.findElement(By.cssSelector("#image-list [data-image='tiny-os']")));
        assertThat(imageRow.getText()).contains("signed by site.pem");
        // An admin uploads an image with its signature from the page.
        browser.findElement(By.id("upload-name")).sendKeys("tiny-os-copy");
        browser
            .findElement(By.id("upload-image"))
            .sendKeys(images.resolve("tiny-os.img").toAbsolutePath().toString());
        browser
            .findElement(By.id("upload-signature"))
            .sendKeys(images.resolve("tiny-os.img.sig").toAbsolutePath().toString());
        browser.findElement(By.id("upload-submit")).click();
        WebElement copyRow =
            wait.until(
                d -> d.findElement(By.cssSelector("#image-list [data-image='tiny-os-copy']")));
        assertThat(copyRow.getText()).contains("signed by site.pem");
        assertThat(browser.findElement(By.id("provisioning-result")).getText())
            .contains("Image tiny-os-copy added");
        WebElement biosRow =
            wait.until(
                d ->
                    d.findElement(
                        By.cssSelector("#reported-list [data-machine='m-525400b10501']")));
        assertThat(biosRow.getText())
            .contains("ready")
            .contains("2 CPUs")
            .contains("tiny-os")
            .as("its boot log's last line")
            .contains("powering off");
        assertThat(
                browser
                    .findElement(By.cssSelector("#reported-list [data-machine='m-525400b10502']"))
                    .getText())
            .contains("new")
            .contains("enlisted");
        Files.write(
            work.resolve("provisioning-page.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      } finally {
        browser.quit();
      }
    }
  }

  private static void logIn(RunningAppliance bulwark, ChromeDriver browser, WebDriverWait wait) {
    browser.get(bulwark.baseUrl() + "/");
    wait.until(d -> d.findElement(By.id("login-form")));
    browser.findElement(By.id("login-consent")).click();
    browser.findElement(By.id("login-user")).sendKeys("admin");
    browser.findElement(By.id("login-password")).sendKeys(RunningAppliance.ADMIN_PASSWORD);
    browser.findElement(By.id("login-submit")).click();
    wait.until(d -> d.findElement(By.cssSelector("#nav a[data-nav='provisioning']")));
  }

  private Path disk(String name, int mib) throws IOException {
    Path d = work.resolve(name);
    try (var f = new java.io.RandomAccessFile(d.toFile(), "rw")) {
      f.setLength((long) mib << 20);
    }
    return d;
  }

  private static final String USER_DATA =
      "#cloud-config\nhostname: tiny\nruncmd:\n  - echo deployed by bulwark\n";

  /**
   * A 4 MiB disk image: a boot sector that writes BULWARK-DEPLOYED-IMAGE to the first serial port
   * and halts, and one Linux partition (from 1 MiB) holding an ext4 file system with an {@code
   * /etc/cloud}, as a cloud image has.
   */
  private static byte[] bootableImage(Path work) throws Exception {
    byte[] image = bootSector(4 << 20);
    java.util.Arrays.fill(image, 512, image.length, (byte) 0);
    Path root = work.resolve("tiny-os-root");
    Files.createDirectories(root.resolve("etc/cloud"));
    Files.writeString(
        root.resolve("etc/cloud/cloud.cfg"), "# the image's own cloud-init configuration\n");
    Path fs = work.resolve("tiny-os-root.ext4");
    run("mkfs.ext4", "-q", "-F", "-d", root.toString(), fs.toString(), "3M");
    byte[] ext4 = Files.readAllBytes(fs);
    assertThat(ext4.length).isEqualTo(3 << 20);
    System.arraycopy(ext4, 0, image, 1 << 20, ext4.length);
    // Partition 1: type 0x83 (Linux), LBA 2048, 6144 sectors.
    java.nio.ByteBuffer entry =
        java.nio.ByteBuffer.wrap(image, 0x1be, 16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    entry
        .put((byte) 0)
        .put(new byte[3])
        .put((byte) 0x83)
        .put(new byte[3])
        .putInt(2048)
        .putInt(6144);
    return image;
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    return out;
  }

  /**
   * A disk image whose boot sector writes BULWARK-DEPLOYED-IMAGE to the first serial port and halts
   * (16-bit code: cli; ds=0; si=message; dx=0x3f8; loop lodsb/out until NUL; hlt).
   */
  static byte[] bootSector(int size) {
    byte[] code = {
      (byte) 0xfa, 0x31, (byte) 0xc0, (byte) 0x8e, (byte) 0xd8, (byte) 0xbe, 0x16, 0x7c,
      (byte) 0xba, (byte) 0xf8, 0x03, (byte) 0xac, (byte) 0x84, (byte) 0xc0, 0x74, 0x03,
      (byte) 0xee, (byte) 0xeb, (byte) 0xf8, (byte) 0xf4, (byte) 0xeb, (byte) 0xfd
    };
    byte[] message = "BULWARK-DEPLOYED-IMAGE\r\n\0".getBytes(StandardCharsets.US_ASCII);
    byte[] image = new byte[size];
    System.arraycopy(code, 0, image, 0, code.length);
    System.arraycopy(message, 0, image, code.length, message.length);
    image[510] = 0x55;
    image[511] = (byte) 0xaa;
    for (int i = 512; i < size; i++) {
      image[i] = (byte) (i * 31 + (i >>> 12));
    }
    return image;
  }

  private void awaitSerial(String log, String text, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Path file = work.resolve(log);
    while (System.nanoTime() < deadline) {
      if (Files.exists(file)
          && Files.readString(file, StandardCharsets.ISO_8859_1).contains(text)) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        "no '" + text + "' on the serial console within " + seconds + " s:\n" + tail(file));
  }

  /** The BIOS machine: network first, then its disk, as a server set to PXE-boot is. */
  private static List<String> biosArgs(Path disk) {
    return List.of(
        "-smp",
        "2",
        "-m",
        "512",
        "-netdev",
        "tap,id=n0,ifname=tap0,script=no,downscript=no",
        "-device",
        "e1000,netdev=n0,mac=52:54:00:b1:05:01",
        "-drive",
        "file=" + disk + ",if=virtio,format=raw",
        "-boot",
        "order=nc");
  }

  /**
   * A QEMU machine behind a Redfish BMC: a reset that turns it on starts QEMU (a restart kills it
   * first), one that turns it off kills it; QEMU ending by itself (the machine powered off) shows
   * as PowerState Off on the BMC. Each start writes its serial console to a log of its own.
   */
  private final class Vm {
    private static final String SYSTEM = "/redfish/v1/Systems/437XR1138R2";
    private final String name;
    private final java.util.function.Supplier<List<String>> args;
    private final RedfishMockupServer bmc;
    private volatile Process process;
    private int starts;

    Vm(String name, java.util.function.Supplier<List<String>> args, RedfishMockupServer bmc) {
      this.name = name;
      this.args = args;
      this.bmc = bmc;
      bmc.overlay(SYSTEM, new JsonObject().put("PowerState", "Off"));
      bmc.onReset(
          (system, type) -> {
            try {
              switch (type) {
                case "ForceOff", "GracefulShutdown" -> kill();
                case "On", "ForceOn", "ForceRestart", "GracefulRestart", "PowerCycle" -> start();
                default -> {}
              }
            } catch (Exception e) {
              throw new IllegalStateException(name + ": " + type + " failed", e);
            }
          });
    }

    synchronized Process start() throws Exception {
      kill();
      starts++;
      Process p = qemu(log(), args.get());
      process = p;
      bmc.overlay(SYSTEM, new JsonObject().put("PowerState", "On"));
      p.onExit()
          .thenRun(
              () -> {
                if (process == p) {
                  bmc.overlay(SYSTEM, new JsonObject().put("PowerState", "Off"));
                }
              });
      return p;
    }

    synchronized void kill() throws Exception {
      Process p = process;
      process = null;
      if (p != null) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }

    synchronized String log() {
      return name + "-" + starts + ".log";
    }

    /** Waits for the BMC to start the machine (after it was off). */
    Process awaitStarted(int seconds) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < deadline) {
        Process p = process;
        if (p != null && p.isAlive()) {
          return p;
        }
        Thread.sleep(200);
      }
      throw new AssertionError(
          name + " was not powered on through its BMC within " + seconds + " s");
    }

    /** Waits for the BMC to start the machine again, in a process other than {@code before}. */
    Process awaitRestarted(Process before, int seconds) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < deadline) {
        Process p = process;
        if (p != null && p != before && p.isAlive()) {
          return p;
        }
        Thread.sleep(200);
      }
      throw new AssertionError(
          name + " was not power-cycled through its BMC within " + seconds + " s");
    }
  }

  private Process uefi(Path disk, String log) throws IOException {
    Path vars = work.resolve("uefi-vars.fd");
    Files.copy(OVMF_VARS, vars, StandardCopyOption.REPLACE_EXISTING);
    return qemu(
        log,
        List.of(
            "-smp",
            "1",
            "-m",
            "512",
            "-machine",
            "q35",
            "-drive",
            "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF_CODE,
            "-drive",
            "if=pflash,format=raw,unit=1,file=" + vars,
            "-netdev",
            "tap,id=n1,ifname=tap1,script=no,downscript=no",
            // No option ROM: OVMF's own virtio-net driver and PXE client boot, as a server's
            // firmware does, and fetch ipxe.efi over TFTP.
            "-device",
            "virtio-net-pci,netdev=n1,mac=52:54:00:b1:05:02,bootindex=1,romfile=",
            "-drive",
            "file=" + disk + ",if=virtio,format=raw"));
  }

  private Process qemu(String log, List<String> machine) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "ip",
                "netns",
                "exec",
                NS,
                "qemu-system-x86_64",
                "-accel",
                "tcg",
                "-display",
                "none",
                "-monitor",
                "none",
                "-serial",
                "file:" + work.resolve(log)));
    command.addAll(machine);
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(work.resolve(log + ".qemu").toFile())
            .start();
    vms.add(p);
    return p;
  }

  private JsonObject awaitMachine(
      RunningAppliance bulwark, String id, String state, Process vm, String log, int seconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = bulwark.get("/api/v1/machines/" + id);
      Runs.assertAnswered(r, "/api/v1/machines/" + id);
      if (r.statusCode() == 200 && state.equals(new JsonObject(r.body()).getString("state"))) {
        return new JsonObject(r.body());
      }
      if (!vm.isAlive() && r.statusCode() != 200) {
        break;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(
        id
            + " did not become "
            + state
            + " within "
            + seconds
            + " s. Serial console:\n"
            + tail(work.resolve(log))
            + "\nQEMU:\n"
            + tail(work.resolve(log + ".qemu"))
            + "\nAppliance:\n"
            + bulwark.console());
  }

  private static String tail(Path file) throws IOException {
    if (!Files.exists(file)) {
      return "(none)";
    }
    String s = Files.readString(file, StandardCharsets.ISO_8859_1);
    return s.length() > 6000 ? s.substring(s.length() - 6000) : s;
  }

  private static JsonObject disk(JsonObject inv, String name) {
    return inv.getJsonArray("disks").stream()
        .map(JsonObject.class::cast)
        .filter(d -> name.equals(d.getString("name")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no disk " + name + " in " + inv.encodePrettily()));
  }

  private static JsonObject nic(JsonObject inv, String mac) {
    return inv.getJsonArray("nics").stream()
        .map(JsonObject.class::cast)
        .filter(d -> mac.equals(d.getString("mac")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no NIC " + mac + " in " + inv.encodePrettily()));
  }

  private static JsonObject test(JsonArray tests, String name) {
    return tests.stream()
        .map(JsonObject.class::cast)
        .filter(t -> name.equals(t.getString("name")))
        .findFirst()
        .orElseThrow();
  }

  private static double metric(String page, String series) {
    for (String line : page.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    throw new AssertionError("no " + series + " on /metrics");
  }

  private static boolean root() {
    try {
      Process p = new ProcessBuilder("id", "-u").start();
      return new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
          .strip()
          .equals("0");
    } catch (IOException e) {
      return false;
    }
  }

  private static void sh(String command) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(command + ": " + out).isZero();
  }
}
