package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reading squeue's job lines. The samples were printed by squeue 22.05 with {@link
 * SqueueJobs#ARGUMENTS} against the test cluster of {@code SlurmCluster}: nodes gpu01, gpu02, gpu03
 * and gpu07, job 6 on all four, job 7 on gpu02 and gpu03, job 8 on gpu07.
 */
class SqueueJobsTest {
  @Test
  void listsEachJobOnEveryNodeOfItsHostlist() throws Exception {
    Map<String, List<String>> jobs = SqueueJobs.parse(Samples.read("squeue-22.05-hostlists.txt"));

    assertThat(jobs)
        .containsExactly(
            Map.entry("gpu01", List.of("6")),
            Map.entry("gpu02", List.of("6", "7")),
            Map.entry("gpu03", List.of("6", "7")),
            Map.entry("gpu07", List.of("6", "8")));
  }

  @Test
  void readsArrayTasksHeterogeneousComponentsAndJobsWithoutNodes() throws Exception {
    Map<String, List<String>> jobs =
        SqueueJobs.parse(
            "1234_7|RUNNING|gpu[01-02]\n"
                + "1300+1|SUSPENDED|gpu03\n"
                + "1301|COMPLETING|(null)\n"
                + "1302|COMPLETING|\n"
                + "\n");

    assertThat(jobs)
        .containsExactly(
            Map.entry("gpu01", List.of("1234_7")),
            Map.entry("gpu02", List.of("1234_7")),
            Map.entry("gpu03", List.of("1300+1")));
  }

  @Test
  void readsNoOutputAsNoJobs() throws Exception {
    assertThat(SqueueJobs.parse("")).isEmpty();
  }

  @Test
  void refusesLinesThatAreNotItsFormat() {
    assertThatThrownBy(() -> SqueueJobs.parse("JOBID PARTITION NAME USER ST TIME NODES NODELIST"))
        .isInstanceOf(SlurmOutputException.class)
        .hasMessageContaining("line 1 is not \"job id|state|nodes\"");
    assertThatThrownBy(() -> SqueueJobs.parse("6|RUNNING|gpu01\n7|RUNNING|gpu[02-"))
        .isInstanceOf(SlurmOutputException.class)
        .hasMessageContaining("line 2")
        .hasMessageContaining("not closed");
  }
}
