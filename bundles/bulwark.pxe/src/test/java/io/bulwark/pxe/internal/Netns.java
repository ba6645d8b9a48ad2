package io.bulwark.pxe.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace joined to the test's own by a veth pair: the host end (in the test's
 * namespace, where the provisioning plane listens) has an address; the client end lives in the
 * namespace, where real DHCP clients and QEMU machines run. Needs root and iproute2; removed on
 * close (deleting the namespace deletes the pair).
 */
final class Netns implements AutoCloseable {
  final String name;
  final String host;
  final String client;

  Netns(String tag, String hostCidr) throws IOException, InterruptedException {
    String id = tag + (ProcessHandle.current().pid() % 10_000);
    name = "bwk-" + id;
    host = "bh" + id;
    client = "bc" + id;
    run("ip", "netns", "add", name);
    try {
      run("ip", "link", "add", host, "type", "veth", "peer", "name", client);
      run("ip", "link", "set", client, "netns", name);
      run("ip", "addr", "add", hostCidr, "dev", host);
      run("ip", "link", "set", host, "up");
      exec("ip", "link", "set", "lo", "up");
      exec("ip", "link", "set", client, "up");
    } catch (IOException | InterruptedException e) {
      close();
      throw e;
    }
  }

  static boolean available() {
    try {
      return new ProcessBuilder("id", "-u").start().inputReader().readLine().equals("0")
          && new ProcessBuilder("ip", "netns", "list").start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** Runs a command inside the namespace and returns its output; fails on a non-zero exit. */
  String exec(String... command) throws IOException, InterruptedException {
    return run(inside(command));
  }

  List<String> inside(String... command) {
    List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", name));
    c.addAll(List.of(command));
    return c;
  }

  static String run(String... command) throws IOException, InterruptedException {
    return run(List.of(command));
  }

  static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish in 60 s");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + out);
    }
    return out;
  }

  @Override
  public void close() {
    try {
      new ProcessBuilder("ip", "netns", "del", name).start().waitFor(30, TimeUnit.SECONDS);
      new ProcessBuilder("ip", "link", "del", host).start().waitFor(30, TimeUnit.SECONDS);
    } catch (IOException | InterruptedException e) {
      // best effort
    }
  }
}
