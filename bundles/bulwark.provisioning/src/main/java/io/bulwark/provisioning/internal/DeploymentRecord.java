package io.bulwark.provisioning.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;

/**
 * What a machine is deployed with (image, its SHA-256 and size, the user data for cloud-init) and
 * how its disks are erased when it is released ({@code none}, {@code quick}, {@code secure}); the
 * outcome of the last deployment or erasure; the deployment's seed token, with which the deployed
 * OS reads its cloud-init user data from the provisioning plane.
 */
record DeploymentRecord(
    String machine,
    String image,
    String sha256,
    long size,
    String userData,
    String erase,
    String outcome,
    Instant at,
    String seed) {
  static final StoreMap<String, DeploymentRecord> MAP =
      StoreMap.byName("provisioning.deployments", new Format());

  DeploymentRecord withErase(String mode, Instant now) {
    return new DeploymentRecord(machine, image, sha256, size, userData, mode, outcome, now, seed);
  }

  DeploymentRecord withOutcome(String text, Instant now) {
    return new DeploymentRecord(machine, image, sha256, size, userData, erase, text, now, seed);
  }

  static final class Format implements RecordFormat<DeploymentRecord> {
    @Override
    public int version() {
      return 2;
    }

    @Override
    public void write(DeploymentRecord r, DataOutputStream out) throws IOException {
      out.writeUTF(r.machine);
      out.writeUTF(r.image);
      out.writeUTF(r.sha256);
      out.writeLong(r.size);
      byte[] u = r.userData.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      out.writeInt(u.length);
      out.write(u);
      out.writeUTF(r.erase);
      out.writeUTF(r.outcome);
      Records.writeInstant(out, r.at);
      out.writeUTF(r.seed);
    }

    @Override
    public DeploymentRecord read(int version, DataInputStream in) throws IOException {
      if (version < 1 || version > 2) {
        throw Records.unknownVersion("deployment", version, 2);
      }
      String machine = in.readUTF();
      String image = in.readUTF();
      String sha = in.readUTF();
      long size = in.readLong();
      int n = in.readInt();
      if (n < 0 || n > (1 << 20)) {
        throw new IOException("user data of " + n + " bytes");
      }
      String user = new String(in.readNBytes(n), java.nio.charset.StandardCharsets.UTF_8);
      String erase = in.readUTF();
      String outcome = in.readUTF();
      Instant at = Records.readInstant(in);
      // Version 1 had no seed token: such a deployment has no cloud-init seed.
      String seed = version >= 2 ? in.readUTF() : "";
      return new DeploymentRecord(machine, image, sha, size, user, erase, outcome, at, seed);
    }
  }
}
