package dev.remedy.cli.fenceagents;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.Optional;

/**
 * The provider a launcher names ({@code --provider CLASS}, written by {@code remedy fence-agents install}), built
 * without ServiceLoader: a one-shot fence process then neither scans the service files nor loads the classes of the
 * other agents, which costs tens of milliseconds on every call. A class that is gone, is not a provider, or now has
 * another type (remedy.jar replaced since the install) gives nothing, and the caller loads the type as usual.
 */
public final class NamedProvider {

    /** The launcher option that names the provider class. */
    public static final String OPTION = "--provider";

    private NamedProvider() {
    }

    /** A registry of the provider class {@code className} alone, if it is a provider of {@code type}. */
    public static Optional<FenceAgentRegistry> load(String className, String type, ClassLoader loader) {
        try {
            Class<?> named = Class.forName(className, false, loader);
            if (!FenceAgentProvider.class.isAssignableFrom(named)) {
                return Optional.empty();
            }
            FenceAgentProvider provider = (FenceAgentProvider) named.getConstructor().newInstance();
            if (!type.equals(provider.type())) {
                if (provider instanceof AutoCloseable closeable) {
                    closeable.close();
                }
                return Optional.empty();
            }
            return Optional.of(FenceAgentRegistry.of(java.util.List.of(provider)));
        } catch (Exception | LinkageError e) {
            return Optional.empty();
        }
    }
}
