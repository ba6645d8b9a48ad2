package io.bulwark.pxe.internal;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.PowerState;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Machines as the boot scripts read them. The machines bundle's registry needs its configuration
 * type, which is private to it; the plane only calls {@link MachineService#machines()}, so this
 * answers that one call from a list and refuses the others.
 */
final class Machines {
  final List<Machine> list = new CopyOnWriteArrayList<>();

  MachineService service() {
    return (MachineService)
        Proxy.newProxyInstance(
            MachineService.class.getClassLoader(),
            new Class<?>[] {MachineService.class},
            (proxy, method, args) -> {
              if (method.getName().equals("machines")) {
                return List.copyOf(list);
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  Machines add(String id, String mac, MachineState state) {
    Instant t = Instant.parse("2026-12-03T08:00:00Z");
    list.add(
        new Machine(
            MachineId.of(id),
            id,
            List.of(mac),
            null,
            "r01",
            "hall-a",
            Set.of(),
            state,
            "",
            t,
            null,
            null,
            "",
            false,
            null,
            PowerState.UNKNOWN,
            "",
            "",
            "",
            t));
    return this;
  }
}
