package dev.remedy.core.store;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.remedy.core.flow.Attempt;
import dev.remedy.core.flow.ClusterAction;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.store.FenceRecordDocument.AttemptDocument;
import dev.remedy.core.store.FenceRecordDocument.ConfirmationDocument;
import dev.remedy.core.store.FenceRecordDocument.OperationDocument;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Converts between {@link NodeFence} and its JSON document. Reading is strict: wrong format number, unknown or
 * missing fields, duplicate keys, type coercions, unknown codes and records the domain refuses are all
 * {@link CorruptRecordException}s. Thread-safe.
 */
final class FenceRecordCodec {

    /** The format number this version writes and the only one it reads. */
    static final int FORMAT = 1;

    /** How format 1 writes "no level" for {@code isolationLevel} and {@code powerLevel}. */
    private static final int NO_LEVEL = -1;

    private final ObjectMapper mapper = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, text -> text
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    /** The JSON bytes (UTF-8) of {@code record}. */
    byte[] write(NodeFence record) {
        try {
            return mapper.writeValueAsBytes(toDocument(record));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("could not write the fence record of node '" + record.node() + "'", e);
        }
    }

    /** The record in {@code json}; every way of being unreadable is a {@link CorruptRecordException}. */
    NodeFence read(byte[] json) throws CorruptRecordException {
        FenceRecordDocument document;
        try {
            JsonNode tree = mapper.readTree(json);
            if (tree == null || !tree.isObject()) {
                throw new CorruptRecordException("not a JSON object");
            }
            JsonNode format = tree.get("format");
            if (format == null || !format.isInt()) {
                throw new CorruptRecordException("no integer \"format\" field");
            }
            if (format.intValue() != FORMAT) {
                throw new CorruptRecordException("format " + format.intValue() + " is not supported (this version "
                        + "reads format " + FORMAT + "); it was probably written by another remedy version");
            }
            document = mapper.treeToValue(tree, FenceRecordDocument.class);
        } catch (JsonProcessingException e) {
            throw new CorruptRecordException(describe(e));
        } catch (IOException e) {
            throw new CorruptRecordException("unreadable JSON: " + e.getMessage());
        }
        try {
            return toRecord(document);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new CorruptRecordException("invalid record: " + e.getMessage());
        }
    }

    private static String describe(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder();
            for (JsonMappingException.Reference ref : mapping.getPath()) {
                if (ref.getFieldName() != null) {
                    path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
            return "field \"" + path + "\" does not fit format " + FORMAT + ": " + e.getOriginalMessage();
        }
        JsonLocation at = e.getLocation();
        return "invalid JSON: " + e.getOriginalMessage() + (at == null || at.getLineNr() < 1 ? ""
                : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")");
    }

    private static FenceRecordDocument toDocument(NodeFence r) {
        return new FenceRecordDocument(FORMAT, r.node(), r.stage().code(), r.level(), r.method(), r.retries(),
                r.restarts(), r.decidedAt().toString(), r.stageSince().toString(), r.stepStartedAt().toString(),
                r.stepDeadline().toString(), r.waitUntil().map(Instant::toString).orElse(null),
                r.inFlight().map(FenceRecordCodec::toDocument).orElse(null), r.sequence(), r.levelConfirmed(),
                r.confirmation().map(c -> new ConfirmationDocument(c.kind().name(), c.source(), c.at().toString()))
                        .orElse(null),
                r.isolationLevel().orElse(NO_LEVEL), r.powerLevel().orElse(NO_LEVEL), r.released(), r.poweredOff(),
                r.pausedAt().map(Instant::toString).orElse(null), r.gaveUp(), r.reason(),
                r.attempts().stream().map(a -> new AttemptDocument(a.at().toString(), a.operation(), a.result().name(),
                        a.detail())).toList(),
                r.version());
    }

    private static OperationDocument toDocument(Operation o) {
        if (o instanceof Operation.Agent agent) {
            return new OperationDocument(o.id(), o.step().code(), agent.level(), agent.method(), agent.action().code(),
                    null, o.issuedAt().toString(), o.budget().toString());
        }
        return new OperationDocument(o.id(), o.step().code(), 0, 0, null, ((Operation.Cluster) o).action().code(),
                o.issuedAt().toString(), o.budget().toString());
    }

    private static NodeFence toRecord(FenceRecordDocument d) {
        return new NodeFence(required(d.node(), "node"), Stage.fromCode(required(d.stage(), "stage")), d.level(),
                d.method(), d.retries(), d.restarts(), instant(d.decidedAt(), "decidedAt"),
                instant(d.stageSince(), "stageSince"), instant(d.stepStartedAt(), "stepStartedAt"),
                instant(d.stepDeadline(), "stepDeadline"), optionalInstant(d.waitUntil(), "waitUntil"),
                Optional.ofNullable(d.inFlight()).map(FenceRecordCodec::toOperation), d.sequence(),
                elements(d.levelConfirmed(), "levelConfirmed", Function.identity()),
                Optional.ofNullable(d.confirmation()).map(FenceRecordCodec::toConfirmation),
                level(d.isolationLevel(), "isolationLevel"), level(d.powerLevel(), "powerLevel"), d.released(), d.poweredOff(), optionalInstant(d.pausedAt(), "pausedAt"),
                d.gaveUp(), required(d.reason(), "reason"),
                elements(d.attempts(), "attempts", FenceRecordCodec::toAttempt), d.version());
    }

    private static Operation toOperation(OperationDocument o) {
        String id = required(o.id(), "inFlight.id");
        FenceStep step = FenceStep.fromCode(required(o.step(), "inFlight.step"));
        Instant issuedAt = instant(o.issuedAt(), "inFlight.issuedAt");
        Duration budget = duration(o.budget(), "inFlight.budget");
        if ((o.action() == null) == (o.cluster() == null)) {
            throw new IllegalArgumentException("an operation is either an agent or a cluster action: " + id);
        }
        if (o.cluster() != null) {
            if (o.level() != 0 || o.method() != 0) {
                throw new IllegalArgumentException("cluster operation " + id + " has a level or method");
            }
            return new Operation.Cluster(id, step, ClusterAction.fromCode(o.cluster()), issuedAt, budget);
        }
        return new Operation.Agent(id, step, o.level(), o.method(), action(o.action()), issuedAt, budget);
    }

    private static Confirmation toConfirmation(ConfirmationDocument c) {
        String kind = required(c.kind(), "confirmation.kind");
        Confirmation.Kind parsed = Arrays.stream(Confirmation.Kind.values()).filter(k -> k.name().equals(kind))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown confirmation kind '" + kind + "'"));
        return new Confirmation(parsed, required(c.source(), "confirmation.source"),
                instant(c.at(), "confirmation.at"));
    }

    private static Attempt toAttempt(AttemptDocument a) {
        return new Attempt(instant(a.at(), "attempts.at"), required(a.operation(), "attempts.operation"),
                status(required(a.result(), "attempts.result")), required(a.detail(), "attempts.detail"));
    }

    private static FenceAction action(String code) {
        return Arrays.stream(FenceAction.values()).filter(a -> a.code().equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fence action '" + code + "'"));
    }

    private static FenceStatus status(String name) {
        return Arrays.stream(FenceStatus.values()).filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown attempt result '" + name + "'"));
    }

    /** A level index, format 1 writing {@value #NO_LEVEL} for none. */
    private static OptionalInt level(int value, String field) {
        if (value < NO_LEVEL) {
            throw new IllegalArgumentException("field \"" + field + "\" is " + value + "; a level is " + NO_LEVEL
                    + " (none) or an index from 0");
        }
        return value == NO_LEVEL ? OptionalInt.empty() : OptionalInt.of(value);
    }

    private static Instant instant(String value, String field) {
        try {
            return Instant.parse(required(value, field));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("field \"" + field + "\" is not an ISO-8601 instant: '" + value + "'", e);
        }
    }

    private static Optional<Instant> optionalInstant(String value, String field) {
        return value == null ? Optional.empty() : Optional.of(instant(value, field));
    }

    private static Duration duration(String value, String field) {
        try {
            return Duration.parse(required(value, field));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("field \"" + field + "\" is not an ISO-8601 duration: '" + value + "'",
                    e);
        }
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("field \"" + field + "\" is null");
        }
        return value;
    }

    private static <D, T> List<T> elements(List<D> values, String field, Function<D, T> convert) {
        List<T> out = new ArrayList<>(required(values, field).size());
        for (D value : values) {
            out.add(convert.apply(required(value, field + " element")));
        }
        return out;
    }
}
