/**
 * The fence-agent contract. A {@link dev.remedy.spi.FenceAgentProvider} is found with
 * {@link java.util.ServiceLoader} (or constructed directly), describes its parameters and creates a
 * {@link dev.remedy.spi.FenceAgent}, which executes one {@link dev.remedy.spi.FenceAction} at a time within the
 * deadline of a {@link dev.remedy.spi.FenceContext} and answers with a {@link dev.remedy.spi.FenceOutcome} value.
 * The provider's {@link dev.remedy.spi.FencingKind} (power, fabric or soft) says what those actions do to the
 * machine and what their answers prove.
 *
 * <p>This package depends on the JDK only: {@link dev.remedy.spi.FenceContext}, its one class that logs, uses
 * {@link java.lang.System.Logger}. Agents log through SLF4J ({@code org.slf4j:slf4j-api}, which their own modules
 * declare; the application that embeds them chooses the provider), measure time through
 * {@link dev.remedy.spi.TimeSource} and never put a secret into a log line, outcome or exception. What a device
 * sends may hold one all the same (a BMC that echoes the login body in an error reply):
 * {@link dev.remedy.spi.discovery.FenceAgentRegistry#create} masks every configured secret in outcomes, exceptions
 * and progress messages, but never sees an agent's log lines, so agents do not log what a device sent.
 */
package dev.remedy.spi;
