/**
 * Finding agents: {@link dev.remedy.spi.discovery.FenceAgentRegistry} loads providers with
 * {@link java.util.ServiceLoader} (or takes them directly), reports what loaded, what failed and which ids
 * are claimed twice, and hands out a provider by its id only. There is no fallback and no priority: the wrong
 * agent would fence the wrong machine. {@link dev.remedy.spi.discovery.FenceAgentRegistry#create} creates agents
 * whose outcomes, exceptions and progress messages never show a configured secret, whatever the device echoes.
 */
package dev.remedy.spi.discovery;
