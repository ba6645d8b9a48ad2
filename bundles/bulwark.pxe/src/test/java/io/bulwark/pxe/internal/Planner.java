package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPlanner;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.provisioning.BootReport;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A planner for the plane's tests: purposes set by MAC (enlist for the others), reports kept. */
final class Planner implements BootPlanner {
  final Map<String, BootPurpose> purposes = new ConcurrentHashMap<>();
  final List<BootReport> reports = new CopyOnWriteArrayList<>();
  final Map<String, String> userData = new ConcurrentHashMap<>();
  final List<String> logged = new CopyOnWriteArrayList<>();

  @Override
  public void progress(String mac, String boot, List<String> lines) {
    for (String l : lines) {
      logged.add(mac + " " + l);
    }
  }

  @Override
  public java.util.Optional<String> cloudInit(String token, String file) {
    return file.equals("user-data")
        ? java.util.Optional.ofNullable(userData.get(token))
        : java.util.Optional.empty();
  }

  @Override
  public BootPurpose purpose(String mac) {
    return purposes.getOrDefault(mac, BootPurpose.ENLIST);
  }

  @Override
  public String report(BootReport report) {
    if (!report.json().startsWith("{")) {
      throw new IllegalArgumentException("the report is not a JSON object");
    }
    reports.add(report);
    return "taken: " + report.purpose().mode() + " of " + report.mac();
  }
}
