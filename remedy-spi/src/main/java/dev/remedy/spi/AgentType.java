package dev.remedy.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares, on a {@link FenceAgentProvider} class, the {@link FenceAgentProvider#type()} it answers with, so that
 * {@link dev.remedy.spi.discovery.FenceAgentRegistry#load(ClassLoader, String)} can pick one agent type without
 * constructing every provider on the class path (a one-shot process, such as a fence agent Pacemaker starts per
 * operation, then loads only the classes of the agent it runs). Optional: a provider without it is constructed to
 * learn its type; one whose type differs from its annotation is a discovery failure.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AgentType {

    /** The type id, as {@link FenceAgentProvider#type()} returns it. */
    String value();
}
