/**
 * remedy's engine: the persisted NodeFence automaton, fence topology, remedy policies and storm protection.
 * It talks to the world only through ports (state store, cluster operations, events, time) and reaches agents
 * through {@link dev.remedy.spi}. Arrives with its own issues; this module is the place they build in.
 */
package dev.remedy.core;
