package io.bulwark.scheduler.slurm.internal;

import java.util.List;

/**
 * One node as {@code sinfo --json} (Slurm 22.05, OpenAPI v0.0.38) lists it.
 *
 * @param name the node name ({@code name})
 * @param state the base state, lower case as sinfo writes it: {@code idle}, {@code mixed}, {@code
 *     allocated}, {@code down}, {@code error}, {@code future} or {@code unknown} ({@code state})
 * @param flags the state flags, upper case as sinfo writes them, e.g. {@code DRAIN}, {@code
 *     COMPLETING}, {@code NOT_RESPONDING} ({@code state_flags})
 * @param reason the reason recorded with a drain or a down, without Slurm's user and time ({@code
 *     reason}), or ""
 * @param partitions the partitions it is in ({@code partitions})
 */
record SinfoNode(
    String name, String state, List<String> flags, String reason, List<String> partitions) {

  SinfoNode {
    flags = List.copyOf(flags);
    partitions = List.copyOf(partitions);
  }
}
