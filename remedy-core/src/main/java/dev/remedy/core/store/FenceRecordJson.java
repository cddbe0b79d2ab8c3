package dev.remedy.core.store;

import dev.remedy.core.flow.NodeFence;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The JSON document of a {@link NodeFence}, as the file store writes it, for stores that keep records elsewhere (a
 * Kubernetes custom resource, a database row). Writing and reading are exact inverses; reading is strict: a wrong
 * format number, unknown or missing fields, duplicate keys, type coercions, unknown codes and records the domain
 * refuses are all {@link CorruptRecordException}s. The document carries its format number ({@value #FORMAT}) and
 * the record's version. Thread-safe; no vendor type appears in this API.
 */
public final class FenceRecordJson {

    /** The format number this version writes and the only one it reads. */
    public static final int FORMAT = FenceRecordCodec.FORMAT;

    private static final FenceRecordCodec CODEC = new FenceRecordCodec();

    private FenceRecordJson() {
    }

    /**
     * The JSON document of {@code record} (an object, indented).
     *
     * @throws java.io.UncheckedIOException if the document cannot be written (not expected for a valid record)
     */
    public static String write(NodeFence record) {
        Objects.requireNonNull(record, "record");
        return new String(CODEC.write(record), StandardCharsets.UTF_8);
    }

    /**
     * The record in {@code json}.
     *
     * @throws CorruptRecordException if {@code json} is not a fence record document of format {@value #FORMAT}; the
     *                                message says which field and why
     */
    public static NodeFence read(String json) throws CorruptRecordException {
        Objects.requireNonNull(json, "json");
        return CODEC.read(json.getBytes(StandardCharsets.UTF_8));
    }
}
