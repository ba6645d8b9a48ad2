package io.bulwark.api.agent;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Asks enrolled node agents for actions on their GPUs over the mutually authenticated, signed
 * action channel; every call is audited. Provided by the agents bundle; used by remediation steps.
 * Calls block on the network (seconds at most) and are safe from any thread.
 */
@ProviderType
public interface AgentActions {

  /** Returns the enrolled agents, revoked ones included, by node name. */
  List<AgentRecord> agents();

  /** Returns the node's agent record, or empty if it never enrolled. */
  Optional<AgentRecord> agent(String node);

  /**
   * Asks the node's agent which actions it can take (a GPU reset needs nvidia-smi, diagnostics
   * dcgmi).
   *
   * @throws AgentChannelException if the node is not enrolled or its agent cannot be asked
   */
  Set<AgentAction> capabilities(String node) throws AgentChannelException;

  /**
   * Starts an action, or returns the one already started under the same request id.
   *
   * @throws AgentChannelException if the node is not enrolled, unreachable or refuses
   */
  ActionResult start(String node, ActionRequest request) throws AgentChannelException;

  /**
   * Returns where the action with {@code requestId} stands.
   *
   * @throws AgentChannelException if it cannot be asked, or the agent does not know the id ({@link
   *     AgentChannelException.Kind#REFUSED}: an agent restart forgets running actions)
   */
  ActionResult status(String node, String requestId) throws AgentChannelException;
}
