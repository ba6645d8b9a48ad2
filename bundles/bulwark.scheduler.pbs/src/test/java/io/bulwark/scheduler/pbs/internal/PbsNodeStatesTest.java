package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.scheduler.SchedulerState;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The states PBS reports (OpenPBS Reference Guide "Vnode States"; Torque pbsnodes(8B)) as
 * remediation sees them; a node is drained only when PBS says offline and lists no job.
 */
class PbsNodeStatesTest {
  @ParameterizedTest(name = "{0} with jobs {1} is {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "free                      | -     | AVAILABLE",
        "job-busy                  | 1.h   | AVAILABLE",
        "job-exclusive             | 1.h   | AVAILABLE",
        "resv-exclusive            | -     | AVAILABLE",
        "busy                      | -     | AVAILABLE",
        "job-sharing               | 1.h   | AVAILABLE",
        "time-shared               | -     | AVAILABLE",
        "reserve                   | -     | AVAILABLE",
        "offline                   | -     | DRAINED",
        "Offline                   | -     | DRAINED",
        "offline                   | 1.h   | DRAINING",
        "offline,job-busy          | 1.h   | DRAINING",
        "job-exclusive,offline     | 1.h   | DRAINING",
        "offline,job-exclusive     | -     | DRAINING",
        "offline,resv-exclusive    | -     | DRAINED",
        "down                      | -     | DOWN",
        "down,offline              | -     | DOWN",
        "state-unknown,down        | -     | DOWN",
        "state-unknown,offline     | -     | DOWN",
        "offline,stale             | -     | DOWN",
        "unresolvable              | -     | DOWN",
        "provisioning              | -     | UNKNOWN",
        "offline,provisioning      | -     | UNKNOWN",
        "offline,maintenance       | -     | UNKNOWN",
        "sleep                     | -     | UNKNOWN",
        "''                        | -     | UNKNOWN",
        "' , '                     | -     | UNKNOWN",
      })
  void maps(String state, String jobs, SchedulerState expected) {
    List<String> listed = jobs.equals("-") ? List.of() : List.of(jobs);

    assertThat(PbsNodeStates.of(state, listed)).isEqualTo(expected);
  }
}
