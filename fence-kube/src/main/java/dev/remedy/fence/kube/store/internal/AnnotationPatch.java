package dev.remedy.fence.kube.store.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Collection;

/** JSON patches (RFC 6902) on an object's annotations. */
public final class AnnotationPatch {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AnnotationPatch() {
    }

    /**
     * A patch that removes {@code keys} from the annotations only if the object's resourceVersion is still
     * {@code resourceVersion}: a {@code test} operation first, so the API server refuses the whole patch (422 on a
     * real server) if anything changed since the object was read, and a {@code remove} fails if a key is gone.
     */
    public static String removeIfUnchanged(String resourceVersion, Collection<String> keys) {
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        ops.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", resourceVersion);
        for (String key : keys) {
            ops.addObject().put("op", "remove").put("path", "/metadata/annotations/" + escape(key));
        }
        try {
            return MAPPER.writeValueAsString(ops);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not write a JSON patch", e);
        }
    }

    /** {@code key} as one JSON-pointer segment (RFC 6901: {@code ~} is {@code ~0}, {@code /} is {@code ~1}). */
    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
