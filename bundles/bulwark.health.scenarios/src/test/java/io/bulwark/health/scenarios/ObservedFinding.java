package io.bulwark.health.scenarios;

/**
 * A finding the health engine opened during a replay: kind, node (index in the scenario's fleet, or
 * -1 for a node the scenario does not know), GPU, and the scenario second at which it opened.
 */
record ObservedFinding(String kind, int node, int gpu, int openSecond, String summary) {}
