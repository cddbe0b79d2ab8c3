package dev.remedy.fence.kube.store.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.CorruptRecordException;
import dev.remedy.core.store.FenceRecordJson;
import dev.remedy.fence.kube.store.NodeFenceResource;
import dev.remedy.fence.kube.store.NodeFenceSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/** Converts between fence records and {@link NodeFenceResource}s. Thread-safe. */
public final class RecordResources {

    /** The label the store puts on the NodeFences it creates. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RecordResources() {
    }

    /** The spec holding {@code record}: its readable fields and its document. */
    public static NodeFenceSpec spec(NodeFence record) {
        NodeFenceSpec spec = new NodeFenceSpec();
        spec.setNode(record.node());
        spec.setStep(record.step().code());
        spec.setState(record.state().code());
        spec.setRetries(record.retries());
        spec.setRestarts(record.restarts());
        spec.setReason(record.reason());
        spec.setReleased(record.released());
        spec.setPoweredOff(record.poweredOff());
        spec.setVersion(record.version());
        try {
            spec.setRecord(MAPPER.readTree(FenceRecordJson.write(record)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("could not convert the fence record of node '" + record.node() + "'", e);
        }
        return spec;
    }

    /** A new NodeFence for {@code record}, named like its node, with no owner reference. */
    public static NodeFenceResource newResource(NodeFence record) {
        NodeFenceResource resource = new NodeFenceResource();
        resource.setMetadata(new ObjectMetaBuilder().withName(record.node())
                .withLabels(Map.of(MANAGED_BY, "remedy")).build());
        resource.setSpec(spec(record));
        return resource;
    }

    /** The record in {@code resource}, or why it cannot be read. */
    public static Reading read(NodeFenceResource resource) {
        String name = resource.getMetadata().getName();
        NodeFenceSpec spec = resource.getSpec();
        if (spec == null || spec.getRecord() == null || spec.getRecord().isNull()) {
            return Reading.problem("it has no spec.record");
        }
        JsonNode document = spec.getRecord();
        if (!document.isObject()) {
            return Reading.problem("spec.record is a " + document.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + ", not an object");
        }
        NodeFence record;
        try {
            record = FenceRecordJson.read(MAPPER.writeValueAsString(document));
        } catch (CorruptRecordException e) {
            return Reading.problem("spec.record is not a fence record: " + e.getMessage());
        } catch (JsonProcessingException e) {
            return Reading.problem("spec.record cannot be written as JSON: " + e.getOriginalMessage());
        }
        if (!record.node().equals(name)) {
            return Reading.problem("its record names node '" + record.node() + "', but a NodeFence is named like its "
                    + "node");
        }
        return new Reading(Optional.of(record), null);
    }

    /** At most {@code max} characters of the spec.record of {@code resource}, for a log line. */
    public static String excerpt(NodeFenceResource resource, int max) {
        JsonNode document = resource.getSpec() == null ? null : resource.getSpec().getRecord();
        String text = String.valueOf(document);
        return text.length() <= max ? text : text.substring(0, max) + "… (" + text.length() + " characters)";
    }

    /**
     * What reading one NodeFence gave: its record, or why it cannot be read.
     *
     * @param record  the record, if readable
     * @param problem why not, if not
     */
    public record Reading(Optional<NodeFence> record, String problem) {

        static Reading problem(String why) {
            return new Reading(Optional.empty(), why);
        }

        /** Whether the NodeFence cannot be read. */
        public boolean corrupt() {
            return problem != null;
        }
    }
}
