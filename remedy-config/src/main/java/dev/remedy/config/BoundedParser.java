package dev.remedy.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;

/**
 * A parser that refuses, token by token, what {@link ConfigDocuments} bounds: a key or value longer than
 * {@link ConfigDocuments#MAX_VALUE_LENGTH}, nesting deeper than {@link ConfigDocuments#MAX_DEPTH}, and YAML aliases.
 * Each refusal is a {@link DocumentException} that says where (line and column) and never quotes the document.
 * One instance reads one document, on one thread.
 */
final class BoundedParser extends JsonParserDelegate {

    private int depth;

    BoundedParser(JsonParser parser) {
        super(parser);
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken token = delegate.nextToken();
        if (token == null) {
            return null;
        }
        if (delegate instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            // The anchor's name is not shown: it is the user's text.
            throw refused("a YAML alias (*name) is not supported: it would be read as the anchor's name, not its "
                    + "value, and aliases can grow a few lines into billions of values; write the value out where "
                    + "it is used");
        }
        switch (token) {
            case START_OBJECT, START_ARRAY -> {
                if (++depth > ConfigDocuments.MAX_DEPTH) {
                    throw refused("the document nests mappings and lists deeper than " + ConfigDocuments.MAX_DEPTH
                            + " levels, the most remedy reads; flatten it (remedy's formats need about 10)");
                }
            }
            case END_OBJECT, END_ARRAY -> depth--;
            case FIELD_NAME -> checkLength(delegate.currentName().length(), "a key");
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> checkLength(delegate.getTextLength(),
                    "a value");
            default -> {
                // true, false and null have no length to bound
            }
        }
        return token;
    }

    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken token = nextToken();
        return token == JsonToken.FIELD_NAME ? nextToken() : token;
    }

    private void checkLength(int length, String what) {
        if (length > ConfigDocuments.MAX_VALUE_LENGTH) {
            throw refused(what + " of " + length + " characters, more than the " + ConfigDocuments.MAX_VALUE_LENGTH
                    + " characters remedy reads in one; shorten it (a configuration names a file rather than holding "
                    + "its content)");
        }
    }

    private DocumentException refused(String problem) {
        JsonLocation at = delegate.currentTokenLocation();
        String where = at != null && at.getLineNr() > 0 ? "line " + at.getLineNr() + ", column " + at.getColumnNr()
                + ": " : "";
        return new DocumentException(where + problem);
    }
}
