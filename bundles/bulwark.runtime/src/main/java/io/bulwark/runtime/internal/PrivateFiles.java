package io.bulwark.runtime.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Keeps the appliance's files private to its own user: sets the process's file-creation mask to 077
 * as the runtime starts (before any other bundle writes a file), so that the store, audit log,
 * secrets, key store, roll-ups and exports are created 0600 in 0700 folders; and at start, and
 * whenever the folders are reconfigured, makes private whatever others could read in the data
 * folder and the framework storage (files an earlier version or an administrator left), saying
 * which.
 */
@Component(
    immediate = true,
    configurationPid = PrivateFiles.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = PrivateFilesConfig.class)
public final class PrivateFiles {
  static final String PID = "io.bulwark.runtime.files";
  static final int UMASK = 0077;

  private static final Logger LOG = System.getLogger(PrivateFiles.class.getName());

  /** The C library's {@code umask(2)}, through JNA. */
  interface CLibrary extends Library {
    int umask(int mask);
  }

  private final String frameworkStorage;

  @Activate
  public PrivateFiles(BundleContext context, PrivateFilesConfig config) {
    this.frameworkStorage = context.getProperty("org.osgi.framework.storage");
    restrictNewFiles();
    secure(config);
  }

  @Modified
  void secure(PrivateFilesConfig config) {
    if (frameworkStorage != null && !frameworkStorage.isBlank()) {
      // The launcher writes the framework storage before any bundle runs, so before the mask is
      // set: making it private is routine, not news.
      Path storage = Path.of(frameworkStorage).toAbsolutePath().normalize();
      FolderPermissions.Report report = FolderPermissions.makePrivate(storage);
      if (report.changed() > 0) {
        LOG.log(Level.INFO, "Made the framework storage private: " + report.describe());
      }
      report.problems().forEach(p -> LOG.log(Level.WARNING, p));
    }
    Set<Path> folders = new LinkedHashSet<>();
    for (String f : config.folders()) {
      if (f != null && !f.isBlank()) {
        folders.add(Path.of(f.trim()).toAbsolutePath().normalize());
      }
    }
    List<String> made = new ArrayList<>();
    boolean files = false;
    for (Path folder : folders) {
      FolderPermissions.Report report = FolderPermissions.makePrivate(folder);
      if (report.changed() > 0) {
        made.add(report.describe());
        files |= report.files() > 0;
      }
      report.problems().forEach(p -> LOG.log(Level.WARNING, p));
    }
    if (!made.isEmpty()) {
      // Folders alone (a data folder just created with the usual mask) show names, not contents.
      LOG.log(
          files ? Level.WARNING : Level.INFO,
          "Made private what other users could read: "
              + String.join("; ", made)
              + ". Bulwark keeps its files readable by its own user only (0600, folders 0700).");
    }
  }

  private static void restrictNewFiles() {
    try {
      CLibrary c = Native.load("c", CLibrary.class);
      int before = c.umask(UMASK);
      LOG.log(
          Level.INFO,
          "Files are created readable by their owner only (umask 077; it was {0})",
          String.format("%03o", before));
    } catch (RuntimeException | LinkageError e) {
      LOG.log(
          Level.WARNING,
          "Cannot set the file-creation mask ({0}): new files get the permissions of the"
              + " service's umask; set UMask=0077 in its unit file",
          e.toString());
    }
  }
}
