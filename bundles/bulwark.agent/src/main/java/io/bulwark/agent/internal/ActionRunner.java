package io.bulwark.agent.internal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs the two actions the agent takes, never through a shell: {@code nvidia-smi --gpu-reset -i N}
 * and {@code dcgmi diag -r LEVEL -i N -j}; one at a time per GPU, killed after the timeout, the
 * output's last 16 KiB kept. Results are kept in memory by request id (the newest 1,000), so that
 * the same request asked again returns the same action.
 */
final class ActionRunner implements AutoCloseable {
  static final int MAX_OUTPUT = 16 * 1024;
  static final int MAX_KEPT = 1000;

  /** An action and where it stands; mutable under the runner's lock. */
  static final class Action {
    final String requestId;
    final String action;
    final int gpu;
    final int level;
    final Instant started = Instant.now();
    String state = "running";
    int exitCode = -1;
    String summary = "";
    String output = "";
    Instant finished;
    Process process;

    Action(String requestId, String action, int gpu, int level) {
      this.requestId = requestId;
      this.action = action;
      this.gpu = gpu;
      this.level = level;
    }

    JsonObject json() {
      return new JsonObject()
          .put("requestId", requestId)
          .put("action", action)
          .put("gpu", gpu)
          .put("level", level)
          .put("state", state)
          .put("exitCode", exitCode)
          .put("summary", summary)
          .put("output", output)
          .put("started", started.toString())
          .put("finished", finished == null ? null : finished.toString());
    }
  }

  private final String nvidiaSmi;
  private final String dcgmi;
  private final int timeoutSeconds;
  private final Map<String, Action> actions = new LinkedHashMap<>();
  private final ExecutorService workers =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "bulwark-agent-action");
            t.setDaemon(true);
            return t;
          });

  ActionRunner(String nvidiaSmi, String dcgmi, int timeoutSeconds) {
    this.nvidiaSmi = nvidiaSmi;
    this.dcgmi = dcgmi;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Returns the actions whose tool is installed here. */
  List<String> capabilities() {
    List<String> out = new ArrayList<>();
    if (installed(nvidiaSmi)) {
      out.add("gpu-reset");
    }
    if (installed(dcgmi)) {
      out.add("dcgm-diag");
    }
    return out;
  }

  JsonObject tools() {
    return new JsonObject()
        .put("nvidiaSmi", installed(nvidiaSmi) ? nvidiaSmi : null)
        .put("dcgmi", installed(dcgmi) ? dcgmi : null);
  }

  private static boolean installed(String tool) {
    Path p = Path.of(tool);
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }

  synchronized Action get(String requestId) {
    return actions.get(requestId);
  }

  /**
   * Starts an action or returns the known one with the same id.
   *
   * @throws IllegalStateException (409) if the id is known for another action, the GPU is busy, or
   *     the tool is not installed
   */
  synchronized Action start(String requestId, String action, int gpu, int level) {
    Action known = actions.get(requestId);
    if (known != null) {
      if (!known.action.equals(action) || known.gpu != gpu || known.level != level) {
        throw new IllegalStateException("request " + requestId + " is already a different action");
      }
      return known;
    }
    if (!capabilities().contains(action)) {
      throw new IllegalStateException(
          (action.equals("gpu-reset") ? "nvidia-smi (" + nvidiaSmi : "dcgmi (" + dcgmi)
              + ") is not installed on this node: "
              + action
              + " cannot be taken here");
    }
    for (Action a : actions.values()) {
      if (a.gpu == gpu && a.state.equals("running")) {
        throw new IllegalStateException(
            "GPU " + gpu + " is busy with " + a.action + " " + a.requestId);
      }
    }
    Action a = new Action(requestId, action, gpu, level);
    actions.put(requestId, a);
    while (actions.size() > MAX_KEPT) {
      String oldest = actions.keySet().iterator().next();
      if (actions.get(oldest).state.equals("running")) {
        break;
      }
      actions.remove(oldest);
    }
    List<String> command =
        action.equals("gpu-reset")
            ? List.of(nvidiaSmi, "--gpu-reset", "-i", Integer.toString(gpu))
            : List.of(
                dcgmi, "diag", "-r", Integer.toString(level), "-i", Integer.toString(gpu), "-j");
    workers.submit(() -> run(a, command));
    return a;
  }

  private void run(Action a, List<String> command) {
    String output;
    int exit;
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      synchronized (this) {
        a.process = p;
      }
      p.getOutputStream().close();
      ByteArrayOutputStream tail = new ByteArrayOutputStream();
      Thread reader = new Thread(() -> keepTail(p.getInputStream(), tail), "bulwark-agent-output");
      reader.setDaemon(true);
      reader.start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        reader.join(2000);
        finish(
            a,
            "failed",
            -1,
            a.action
                + " on GPU "
                + a.gpu
                + " did not end within "
                + timeoutSeconds
                + " s and was killed",
            text(tail));
        return;
      }
      reader.join(5000);
      output = text(tail);
      exit = p.exitValue();
    } catch (IOException e) {
      finish(a, "failed", -1, command.get(0) + " could not be started: " + e.getMessage(), "");
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      finish(a, "failed", -1, "the agent stopped while " + a.action + " ran", "");
      return;
    }
    if (a.action.equals("gpu-reset")) {
      if (exit == 0) {
        finish(a, "succeeded", 0, "GPU " + a.gpu + " reset (nvidia-smi exit 0)", output);
      } else {
        finish(a, "failed", exit, "GPU " + a.gpu + " was not reset: " + lastLine(output), output);
      }
      return;
    }
    List<String> failed = new ArrayList<>();
    boolean parsed = diagFailures(output, failed);
    if (exit == 0 && parsed && failed.isEmpty()) {
      finish(a, "succeeded", 0, "diag level " + a.level + " passed on GPU " + a.gpu, output);
    } else if (!failed.isEmpty()) {
      finish(
          a,
          "failed",
          exit,
          "diag level "
              + a.level
              + " on GPU "
              + a.gpu
              + ": "
              + failed.size()
              + " test(s) failed ("
              + String.join(", ", failed)
              + ")",
          output);
    } else {
      finish(
          a,
          "failed",
          exit,
          "diag level "
              + a.level
              + " on GPU "
              + a.gpu
              + " failed (exit "
              + exit
              + (parsed ? "" : ", output not JSON")
              + "): "
              + lastLine(output),
          output);
    }
  }

  /** Collects the names of tests whose result is Fail; returns false if the output is not JSON. */
  static boolean diagFailures(String output, List<String> failed) {
    int start = output.indexOf('{');
    if (start < 0) {
      return false;
    }
    try {
      walk(new JsonObject(output.substring(start, output.lastIndexOf('}') + 1)), "", failed);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void walk(Object node, String name, List<String> failed) {
    if (node instanceof JsonObject o) {
      String here = o.getString("name", o.getString("test_name", o.getString("category", name)));
      for (String k : o.fieldNames()) {
        Object v = o.getValue(k);
        if ((k.equals("status") || k.equals("result"))
            && v instanceof String s
            && s.equalsIgnoreCase("fail")
            && !failed.contains(here)) {
          failed.add(here);
        }
        walk(v, here, failed);
      }
    } else if (node instanceof JsonArray a) {
      for (Object v : a) {
        walk(v, name, failed);
      }
    }
  }

  private synchronized void finish(
      Action a, String state, int exit, String summary, String output) {
    a.state = state;
    a.exitCode = exit;
    a.summary = summary;
    a.output = output;
    a.finished = Instant.now();
    a.process = null;
  }

  private static void keepTail(InputStream in, ByteArrayOutputStream tail) {
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) > 0) {
        synchronized (tail) {
          tail.write(buf, 0, n);
          if (tail.size() > 2 * MAX_OUTPUT) {
            byte[] all = tail.toByteArray();
            tail.reset();
            tail.write(all, all.length - MAX_OUTPUT, MAX_OUTPUT);
          }
        }
      }
    } catch (IOException ignored) {
      // the process ended
    }
  }

  private static String text(ByteArrayOutputStream tail) {
    synchronized (tail) {
      byte[] all = tail.toByteArray();
      int from = Math.max(0, all.length - MAX_OUTPUT);
      return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }
  }

  private static String lastLine(String output) {
    String[] lines = output.strip().split("\n");
    return lines.length == 0 || lines[lines.length - 1].isBlank()
        ? "(no output)"
        : lines[lines.length - 1].strip();
  }

  @Override
  public synchronized void close() {
    for (Action a : actions.values()) {
      if (a.process != null) {
        a.process.destroyForcibly();
      }
    }
    workers.shutdownNow();
  }
}
