/**
 * Agent configuration: {@link dev.remedy.spi.config.ParameterDescriptor}s that describe what an agent accepts,
 * {@link dev.remedy.spi.config.AgentConfig} with typed getters and all-at-once validation, and
 * {@link dev.remedy.spi.config.Secret}, a value that never shows itself in text.
 */
package dev.remedy.spi.config;
