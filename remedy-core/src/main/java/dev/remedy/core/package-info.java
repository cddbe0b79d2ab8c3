/**
 * remedy's engine: the persisted NodeFence automaton, fence topology, remedy policies and storm protection.
 * It talks to the world only through ports (state store, cluster operations, events, time) and reaches agents
 * through {@link dev.remedy.spi}.
 *
 * <p>The API is the packages of the areas: {@code flow} (the automaton, its records and events), {@code engine}
 * (the engine, its builder and its ports), {@code plan}, {@code event}, {@code store}, {@code topology},
 * {@code policy}, {@code storm} and {@code rules}. A package named {@code internal} inside an area
 * ({@code dev.remedy.core.<area>.internal}) is not API: it may change in any release.
 */
package dev.remedy.core;
