package dev.remedy.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads configuration documents, YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) by the file name's
 * extension, into a {@link ConfigNode} tree. Strict: a key given twice in one mapping and anything after the
 * document are syntax errors. A syntax error says where (line and column) and what, but never quotes the
 * document, which may hold a secret.
 *
 * <p>Thread-safe; loading blocks on file I/O.
 */
public final class ConfigDocuments {

    /**
     * Quoted text in parser messages, which may be a piece of the document (and so of a secret); SnakeYAML's token
     * names ({@code '<block end>'}), escaped characters ({@code '\t(TAB)'}) and JSON's literals stay.
     */
    private static final Pattern QUOTED =
            Pattern.compile("'(?![<\\\\]|(?:null|true|false)')[^'\\n]{2,}'|\"[^\"\\n]{2,}\"");
    /** SnakeYAML's position marks, 1-based. */
    private static final Pattern MARK = Pattern.compile("line (\\d+), column (\\d+):");

    private static final ObjectMapper YAML = configure(new ObjectMapper(new YAMLFactory()));
    private static final ObjectMapper JSON = configure(new ObjectMapper());

    private ConfigDocuments() {
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
        ObjectMapper mapper = mapperFor(file.toString());
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DocumentException("cannot read the file (" + e.getClass().getSimpleName() + "); check that it "
                    + "exists, is readable and is UTF-8 text", e);
        }
        return parse(mapper, text);
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
        try {
            return new ConfigNode(mapper.readTree(text));
        } catch (JacksonException e) {
            // The parser's exception is not kept as the cause: its message quotes the document around the error.
            throw new DocumentException(syntaxError(mapper == YAML ? "YAML" : "JSON", e));
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
                .collect(Collectors.joining("; "));
        // A duplicate key is named: keys are names, and without it the user has only the line to go by.
        String shown = problem.startsWith("Duplicate field") ? problem : QUOTED.matcher(problem).replaceAll("'...'");
        return where + format + " syntax error: " + shown + "; fix the " + format + " there"
                + (shown.equals(problem) ? "" : " (text quoted from the file is not shown, in case it is a secret)");
    }
}
