package dev.remedy.core.topology;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a fence configuration from YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) and checks it
 * against the agents of a {@link FenceAgentRegistry}.
 *
 * <p>A file with problems is refused with one {@link FenceConfigurationException} that lists every problem at
 * once, each with the file and its path in the document: unknown keys, malformed durations, negative retries,
 * unknown agent types and templates, empty levels, a misplaced or second default topology, secrets written in
 * plain text, unknown parameters, required parameters no node gives, and syntax errors (with line and column).
 * No message contains a secret value.
 *
 * <p>Thread-safe; one loader can be shared. Loading blocks on file I/O.
 */
public final class FenceConfigurationLoader {

    /**
     * Quoted text in parser messages, which may be a piece of the document (and so of a secret); SnakeYAML's token
     * names ({@code '<block end>'}), escaped characters ({@code '\t(TAB)'}) and JSON's literals stay.
     */
    private static final Pattern QUOTED =
            Pattern.compile("'(?![<\\\\]|(?:null|true|false)')[^'\\n]{2,}'|\"[^\"\\n]{2,}\"");
    /** SnakeYAML's position marks, 1-based. */
    private static final Pattern MARK = Pattern.compile("line (\\d+), column (\\d+):");

    private final ObjectMapper yaml = configure(new ObjectMapper(new YAMLFactory()));
    private final ObjectMapper json = configure(new ObjectMapper());

    /** A loader; cheap to create, and reusable. */
    public FenceConfigurationLoader() {
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        mapper.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        return mapper;
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
        ObjectMapper mapper = mapperFor(source);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new FenceConfigurationException(List.of(new ConfigurationIssue(source, "",
                    "cannot read the file (" + e.getClass().getSimpleName() + "); check that it exists, is readable "
                            + "and is UTF-8 text")), e);
        }
        return read(mapper, text, source, registry);
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
        return read(mapperFor(sourceName), text, sourceName, registry);
    }

    private FenceConfiguration read(ObjectMapper mapper, String text, String source, FenceAgentRegistry registry) {
        JsonNode root;
        try {
            root = mapper.readTree(text);
        } catch (JacksonException e) {
            // The parser's exception is not kept as the cause: its message quotes the document around the error.
            throw new FenceConfigurationException(List.of(new ConfigurationIssue(source, "",
                    syntaxError(mapper == yaml ? "YAML" : "JSON", e))));
        }
        return new ConfigReader(source, registry).read(root);
    }

    private ObjectMapper mapperFor(String source) {
        String name = source.toLowerCase(Locale.ROOT);
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return yaml;
        }
        if (name.endsWith(".json")) {
            return json;
        }
        throw new FenceConfigurationException(List.of(new ConfigurationIssue(source, "",
                "the format is unknown; name the file .yaml, .yml or .json")));
    }

    /**
     * {@code line L, column C: YAML syntax error: problem}. Only the parser's problem lines are kept: the excerpt of
     * the document it quotes (which may hold a secret) is dropped, and so is quoted text from the document.
     */
    private static String syntaxError(String format, JacksonException e) {
        String original = Objects.requireNonNullElse(e.getOriginalMessage(), e.getClass().getSimpleName());
        // SnakeYAML says where the problem is in its last "line L, column C:" mark; Jackson's location is a fallback.
        Matcher mark = MARK.matcher(original);
        String where = "";
        while (mark.find()) {
            where = "line " + mark.group(1) + ", column " + mark.group(2) + ": ";
        }
        JsonLocation location = e.getLocation();
        if (where.isEmpty() && location != null && location.getLineNr() > 0) {
            where = "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": ";
        }
        String problem = original.lines()
                .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .map(String::strip)
                .collect(Collectors.joining("; "));
        // A duplicate key is named: keys are names, and without it the user has only the line to go by.
        String shown = problem.startsWith("Duplicate field") ? problem : QUOTED.matcher(problem).replaceAll("'...'");
        return where + format + " syntax error: " + shown + "; fix the " + format + " there"
                + (shown.equals(problem) ? "" : " (text quoted from the file is not shown, in case it is a secret)");
    }
}
