package dev.remedy.core.topology;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.DocumentException;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a fence configuration from YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) and checks it
 * against the agents of a {@link FenceAgentRegistry}.
 *
 * <p>A file with problems is refused with one {@link FenceConfigurationException} that lists every problem at
 * once, each with the file and its path in the document: unknown keys, malformed durations, step timeouts over
 * {@link FenceConfiguration#MAX_STEP_TIMEOUT}, negative retries, unknown agent types and templates, empty levels, a
 * misplaced or second default topology, secrets written in plain text, unknown parameters, required parameters no
 * node gives, values an agent's own checks refuse ({@link dev.remedy.spi.FenceAgentProvider#validate}, for every
 * method of every node under {@code nodes} and every template in use), a fabric or soft method (by its agent's
 * {@link dev.remedy.spi.FencingKind}) under power management, syntax errors (with line and column) and documents
 * over the bounds of {@link dev.remedy.config.ConfigDocuments}. No message contains a secret value.
 *
 * <p>A configuration that loads may still have {@link FenceConfiguration#warnings()}, which are logged at WARN.
 *
 * <p>Thread-safe; one loader can be shared. Loading blocks on file I/O.
 */
public final class FenceConfigurationLoader {

    private static final Logger LOG = LoggerFactory.getLogger(FenceConfigurationLoader.class);

    /** A loader; cheap to create, and reusable. */
    public FenceConfigurationLoader() {
    }

    /**
     * Reads {@code file} (UTF-8); its extension gives the format.
     *
     * @throws FenceConfigurationException listing every problem, or saying why the file cannot be read
     */
    public FenceConfiguration load(Path file, FenceAgentRegistry registry) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(registry, "registry");
        String source = file.toString();
        ConfigNode root = ConfigDocuments.read(file, e -> refused(source, e));
        return warned(new ConfigReader(source, registry).read(root));
    }

    /**
     * Reads {@code text}; the extension of {@code sourceName} gives the format, and issues name {@code sourceName}.
     *
     * @throws FenceConfigurationException listing every problem
     */
    public FenceConfiguration parse(String text, String sourceName, FenceAgentRegistry registry) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(registry, "registry");
        ConfigNode root = ConfigDocuments.parse(text, sourceName, e -> refused(sourceName, e));
        return warned(new ConfigReader(sourceName, registry).read(root));
    }

    /** Logs {@code configuration}'s {@link FenceConfiguration#warnings()}. */
    private static FenceConfiguration warned(FenceConfiguration configuration) {
        configuration.warnings().forEach(LOG::warn);
        return configuration;
    }

    private static FenceConfigurationException refused(String source, DocumentException e) {
        return new FenceConfigurationException(List.of(ConfigProblem.in(source, "", e.getMessage())),
                e.getCause());
    }
}
