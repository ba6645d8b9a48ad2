package io.bulwark.agent.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Scripts the stand-in NVML library (src/test/c/fake_nvml.c, built into target/fake-nvml by the
 * test build): no GPU exists where the tests run, so the tests load that library, which follows the
 * NVML ABI, through the real JNA path and write the values it answers into its control file
 * (fake-nvml.conf next to it).
 */
final class FakeNvml {
  static final Path DIR = Path.of(System.getProperty("bulwark.fake.nvml.dir", "target/fake-nvml"));
  static final Path CONTROL = DIR.resolve("fake-nvml.conf");

  private final List<String> lines = new ArrayList<>();

  /** Adds a raw directive line. */
  FakeNvml line(String line) {
    lines.add(line);
    return this;
  }

  /** Sets reading {@code key} of GPU {@code gpu}. */
  FakeNvml set(int gpu, String key, Object value) {
    return line("gpu " + gpu + " " + key + " " + value);
  }

  /** Adds GPU {@code gpu} with every reading the agent asks for; values depend on the index. */
  FakeNvml fullGpu(int gpu) {
    set(gpu, "uuid", uuid(gpu));
    set(gpu, "serial", "16549220065" + gpu);
    set(gpu, "name", "NVIDIA H100 80GB HBM3");
    set(gpu, "bus", String.format("00000000:%02X:00.0", 0x18 + gpu * 0x1C));
    set(gpu, "temp", 41 + gpu);
    set(gpu, "memtemp", 38 + gpu);
    set(gpu, "slowdown", 87);
    set(gpu, "shutdown", 92);
    set(gpu, "sm_clock", 1980 - gpu);
    set(gpu, "mem_clock", 2619);
    set(gpu, "max_sm_clock", 1980);
    set(gpu, "max_mem_clock", 2619);
    set(gpu, "power_mw", 312456 + gpu);
    set(gpu, "mgmt_limit_mw", 700000);
    set(gpu, "enforced_limit_mw", 650000);
    set(gpu, "util_gpu", 97);
    set(gpu, "util_mem", 45);
    set(gpu, "clock_reasons", 4);
    set(gpu, "violation_power_ns", 1_500_000);
    set(gpu, "violation_thermal_ns", 2_000);
    set(gpu, "ecc_sbe_vol", 3);
    set(gpu, "ecc_dbe_vol", 0);
    set(gpu, "ecc_sbe_agg", 17);
    set(gpu, "ecc_dbe_agg", 1);
    set(gpu, "retired_sbe", 2);
    set(gpu, "retired_dbe", 1);
    set(gpu, "retired_pending", 0);
    set(gpu, "remap_corr", 5);
    set(gpu, "remap_unc", 1);
    set(gpu, "remap_pending", 0);
    set(gpu, "remap_failure", 0);
    set(gpu, "hist_max", 636);
    set(gpu, "hist_high", 4);
    set(gpu, "hist_partial", 0);
    set(gpu, "hist_low", 0);
    set(gpu, "hist_none", 0);
    set(gpu, "pcie_gen", 5);
    set(gpu, "pcie_width", 16);
    set(gpu, "pcie_max_gen", 5);
    set(gpu, "pcie_max_width", 16);
    set(gpu, "pcie_replay", 7);
    set(gpu, "nvlinks", 18);
    set(gpu, "nvlink_crc_flit", 2);
    set(gpu, "nvlink_crc_data", 1);
    set(gpu, "nvlink_replay", 3);
    return set(gpu, "nvlink_recovery", 0);
  }

  static String uuid(int gpu) {
    return "GPU-1f2e3d4c-0000-4000-8000-00000000000" + gpu;
  }

  /** Writes the control file in one atomic step, so the library never reads half of it. */
  void write() {
    try {
      Files.createDirectories(DIR);
      Path partial = DIR.resolve("fake-nvml.conf.partial");
      Files.write(partial, lines);
      Files.move(
          partial, CONTROL, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
