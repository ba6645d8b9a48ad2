/**
 * Files written whole or not at all ({@link io.bulwark.lib.files.AtomicFile}), readable by the
 * service user only: the one way Bulwark's bundles replace a file they keep; and CSV that a
 * spreadsheet cannot run as formulas ({@link io.bulwark.lib.files.SpreadsheetCsv}), the one way
 * they export a table.
 */
@Export
@Version("1.1.0")
package io.bulwark.lib.files;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
