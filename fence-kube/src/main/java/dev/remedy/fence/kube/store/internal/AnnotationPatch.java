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
     * {@code resourceVersion}: the patch sets {@code metadata.resourceVersion} to it, which the API server takes as
     * a precondition and refuses with 409 Conflict if the object changed since it was read (the mock server does
     * the same). A {@code test} operation would say the same on a real server (422), but makes fabric8's mock
     * server hang until the client's request timeout.
     */
    public static String removeIfUnchanged(String resourceVersion, Collection<String> keys) {
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        ops.addObject().put("op", "replace").put("path", "/metadata/resourceVersion").put("value", resourceVersion);
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
