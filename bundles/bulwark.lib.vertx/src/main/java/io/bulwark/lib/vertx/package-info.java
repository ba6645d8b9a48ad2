/**
 * What every Bulwark HTTP endpoint shares on top of Vert.x: starting to listen with a deadline and
 * an operator's error ({@link io.bulwark.lib.vertx.HttpListen}), and answering errors as problem
 * details ({@link io.bulwark.lib.vertx.ProblemJson}).
 */
@Export
@Version("1.0.0")
package io.bulwark.lib.vertx;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
