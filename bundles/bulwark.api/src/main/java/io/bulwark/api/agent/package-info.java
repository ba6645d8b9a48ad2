/**
 * The node agent's action channel as the appliance sees it: enrolled agents ({@link
 * io.bulwark.api.agent.AgentRecord}) and the actions they take on their GPUs ({@link
 * io.bulwark.api.agent.AgentActions}): a GPU reset and DCGM diagnostics, asked for over mutually
 * authenticated TLS with every request and answer signed, and audited on both sides.
 */
@Export
@Version("1.0.0")
package io.bulwark.api.agent;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
