package dev.remedy.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads configuration documents, YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) by the file name's
 * extension, into a {@link ConfigNode} tree. Strict: a key given twice in one mapping and anything after the
 * document are syntax errors. A syntax error says where (line and column) and what, but never quotes the
 * document, which may hold a secret.
 *
 * <p>Bounded, so that no document makes a reader run out of memory, hang or parse for minutes: a file is a regular
 * file of at most {@link #MAX_DOCUMENT_BYTES} ({@link TextFiles}); a YAML line is at most {@link #MAX_LINE_LENGTH}
 * characters (SnakeYAML's time grows with the square of a line's length); a key or value is at most
 * {@link #MAX_VALUE_LENGTH} characters; nesting is at most {@link #MAX_DEPTH} levels; and YAML aliases
 * ({@code *name}) are refused: Jackson would read one as its anchor's name, not its value, and expanding them is
 * how a few lines become a billion (a "YAML bomb").
 *
 * <p>Thread-safe; loading blocks on file I/O.
 */
public final class ConfigDocuments {

    /** The largest document read: 8 MiB, many times a fence configuration of 5,000 nodes. */
    public static final int MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
    /** The longest line of a YAML document, in characters: 64 Ki. */
    public static final int MAX_LINE_LENGTH = 64 * 1024;
    /** The longest key or value, in characters: 64 Ki. */
    public static final int MAX_VALUE_LENGTH = 64 * 1024;
    /** The deepest nesting of mappings and lists: 64 levels, where remedy's formats need about 10. */
    public static final int MAX_DEPTH = 64;

    /**
     * Quoted text in parser messages, which may be a piece of the document (and so of a secret); SnakeYAML's token
     * names ({@code '<block end>'}), escaped characters ({@code '\t(TAB)'}) and JSON's literals stay.
     */
    private static final Pattern QUOTED =
            Pattern.compile("'(?![<\\\\]|(?:null|true|false)')[^'\\n]{2,}'|\"[^\"\\n]{2,}\"");
    /** Where Jackson says a limit comes from, as in {@code , from `StreamReadConstraints.getMaxNumberLength()`}. */
    private static final Pattern PARSER_SETTING = Pattern.compile(", from `[^`]*`");
    /** SnakeYAML's position marks, 1-based. */
    private static final Pattern MARK = Pattern.compile("line (\\d+), column (\\d+):");

    // The builder starts without the parser features new YAMLFactory() has: 'key:' with no value is null, not "".
    private static final ObjectMapper YAML = configure(new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(loaderOptions()).enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build()));
    private static final ObjectMapper JSON = configure(new ObjectMapper());

    private ConfigDocuments() {
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_DOCUMENT_BYTES);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setAllowDuplicateKeys(false);
        return options;
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        mapper.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        return mapper;
    }

    /**
     * Reads {@code file} (UTF-8); its extension gives the format.
     *
     * @return the root; {@link ConfigNode#isMissingNode() missing} for an empty document
     * @throws DocumentException if the format is unknown, the file cannot be read or has a syntax error
     */
    public static ConfigNode read(Path file) {
        Objects.requireNonNull(file, "file");
        return parse(mapperFor(file.toString()), readText(file));
    }

    /**
     * Reads {@code file} (UTF-8) as YAML, whatever it is named (a format whose files are YAML, such as device
     * profiles; JSON is YAML too), as boundedly as {@link #read(Path)}.
     *
     * @return the root; {@link ConfigNode#isMissingNode() missing} for an empty document
     * @throws DocumentException if the file cannot be read or has a syntax error
     */
    public static ConfigNode readYaml(Path file) {
        Objects.requireNonNull(file, "file");
        return parse(YAML, readText(file));
    }

    private static String readText(Path file) {
        try {
            return TextFiles.read(file, MAX_DOCUMENT_BYTES);
        } catch (DocumentException e) {
            throw new DocumentException("cannot read the file: " + e.getMessage(), e.getCause());
        }
    }

    /**
     * Parses {@code text}; the extension of {@code sourceName} gives the format.
     *
     * @return the root; {@link ConfigNode#isMissingNode() missing} for an empty document
     * @throws DocumentException if the format is unknown or the text has a syntax error
     */
    public static ConfigNode parse(String text, String sourceName) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        return parse(mapperFor(sourceName), text);
    }

    /**
     * Parses {@code text} as YAML, whatever its source is named (a format whose files are YAML, such as device
     * profiles; JSON is YAML too).
     *
     * @return the root; {@link ConfigNode#isMissingNode() missing} for an empty document
     * @throws DocumentException if the text has a syntax error
     */
    public static ConfigNode parseYaml(String text) {
        return parse(YAML, Objects.requireNonNull(text, "text"));
    }

    /**
     * {@link #read(Path)}, with a document that cannot be read or parsed turned into the caller's own exception.
     */
    public static ConfigNode read(Path file, Function<DocumentException, ? extends RuntimeException> refuse) {
        try {
            return read(file);
        } catch (DocumentException e) {
            throw refuse.apply(e);
        }
    }

    /**
     * {@link #parse(String, String)}, with a document that cannot be parsed turned into the caller's own exception.
     */
    public static ConfigNode parse(String text, String sourceName,
                                   Function<DocumentException, ? extends RuntimeException> refuse) {
        try {
            return parse(text, sourceName);
        } catch (DocumentException e) {
            throw refuse.apply(e);
        }
    }

    private static ConfigNode parse(ObjectMapper mapper, String text) {
        if (text.length() > MAX_DOCUMENT_BYTES) {
            throw new DocumentException("the document is longer than " + TextFiles.size(MAX_DOCUMENT_BYTES)
                    + ", the most remedy reads; give a smaller document");
        }
        if (mapper == YAML) {
            checkLines(text);
        }
        try (JsonParser parser = new BoundedParser(mapper.createParser(text))) {
            JsonNode root = mapper.readTree(parser);
            return new ConfigNode(root == null ? MissingNode.getInstance() : root);
        } catch (JacksonException e) {
            // The parser's exception is not kept as the cause: its message quotes the document around the error.
            throw new DocumentException(syntaxError(mapper == YAML ? "YAML" : "JSON", e));
        } catch (IOException e) {
            throw new DocumentException("the document cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** Refuses a YAML line over {@link #MAX_LINE_LENGTH}, before SnakeYAML spends the square of its length on it. */
    private static void checkLines(String text) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - start > MAX_LINE_LENGTH) {
                    throw new DocumentException("line " + line + ": the line is " + (i - start) + " characters long, "
                            + "more than the " + MAX_LINE_LENGTH + " characters remedy reads in one line; break it "
                            + "(a long list can span lines, one item per line)");
                }
                line++;
                start = i + 1;
            }
        }
    }

    private static ObjectMapper mapperFor(String source) {
        String name = source.toLowerCase(Locale.ROOT);
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return YAML;
        }
        if (name.endsWith(".json")) {
            return JSON;
        }
        throw new DocumentException("the format is unknown; name the file .yaml, .yml or .json");
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
                .map(line -> PARSER_SETTING.matcher(line).replaceAll(""))
                .collect(Collectors.joining("; "));
        if (original.startsWith("Trailing token")) {
            return where + format + " syntax error: more follows the end of the document (a second document after "
                    + "---?); give one document per file";
        }
        // A duplicate key is named: keys are names, and without it the user has only the line to go by.
        String shown = problem.startsWith("Duplicate field") ? problem : QUOTED.matcher(problem).replaceAll("'...'");
        return where + format + " syntax error: " + shown + "; fix the " + format + " there"
                + (shown.equals(problem) ? "" : " (text quoted from the file is not shown, in case it is a secret)");
    }
}
