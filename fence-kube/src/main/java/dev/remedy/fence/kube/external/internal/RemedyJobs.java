package dev.remedy.fence.kube.external.internal;

import dev.remedy.core.policy.Remedy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Node remedy design's remedy pods as {@code batch/v1} Jobs: the inline Job of a remedy (what a
 * {@code podTemplate} becomes) made for one node, named by {@link JobNames}, in remedy's namespace, with the node's
 * name in the environment variable {@value #NODE_NAME_ENV} of every container and init container (a variable of
 * that name the template sets is replaced), and {@code restartPolicy: Never} when the pod template sets none (a
 * Job's pods must not restart {@code Always}).
 */
public final class RemedyJobs {

    /** The environment variable that tells a remedy pod which node to act on. */
    public static final String NODE_NAME_ENV = "NODE_NAME";

    private RemedyJobs() {
    }

    /** The Job of {@code remedy} (an inline {@code batch/v1} Job) for {@code node} in {@code namespace}. */
    static GenericKubernetesResource job(String node, Remedy.External remedy, String namespace) throws Unbuildable {
        Map<String, Object> given = ((Remedy.External.Inline) remedy.source()).object();
        GenericKubernetesResource job = new GenericKubernetesResource();
        job.setApiVersion("batch/v1");
        job.setKind("Job");
        ObjectMeta meta = new ObjectMeta();
        meta.setName(JobNames.of(node, remedy.name()));
        meta.setNamespace(namespace);
        if (given.get("metadata") instanceof Map<?, ?> metadata) {
            meta.setLabels(strings(metadata.get("labels")));
            meta.setAnnotations(strings(metadata.get("annotations")));
        }
        job.setMetadata(meta);
        Map<String, Object> spec = given.get("spec") instanceof Map<?, ?> m ? mutableCopy(m) : new LinkedHashMap<>();
        Map<String, Object> podSpec = map(map(spec, "template", remedy), "spec", remedy);
        podSpec.putIfAbsent("restartPolicy", "Never");
        if (!(podSpec.get("containers") instanceof List<?> containers) || containers.isEmpty()) {
            throw new Unbuildable("remedy " + remedy.name() + ": its pod template has no containers; give "
                    + "podTemplate.spec.containers");
        }
        for (String key : List.of("containers", "initContainers")) {
            if (podSpec.get(key) instanceof List<?> list) {
                for (Object container : list) {
                    if (container instanceof Map<?, ?> c) {
                        setNodeName(cast(c), node);
                    }
                }
            }
        }
        job.setAdditionalProperty("spec", spec);
        return job;
    }

    private static void setNodeName(Map<String, Object> container, String node) {
        List<Object> env = new ArrayList<>();
        if (container.get("env") instanceof List<?> given) {
            for (Object variable : given) {
                if (!(variable instanceof Map<?, ?> v && NODE_NAME_ENV.equals(v.get("name")))) {
                    env.add(variable);
                }
            }
        }
        Map<String, Object> variable = new LinkedHashMap<>();
        variable.put("name", NODE_NAME_ENV);
        variable.put("value", node);
        env.add(variable);
        container.put("env", env);
    }

    private static Map<String, Object> map(Map<String, Object> parent, String key, Remedy.External remedy)
            throws Unbuildable {
        Object value = parent.get(key);
        if (!(value instanceof Map<?, ?> m)) {
            throw new Unbuildable("remedy " + remedy.name() + ": its Job has no " + key + " object where a pod "
                    + "template belongs (spec.template.spec)");
        }
        return cast(m);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    private static Map<String, String> strings(Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        }
        return out;
    }

    /** A deep, mutable copy of a JSON-like map. */
    static Map<String, Object> mutableCopy(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), copyValue(v)));
        return copy;
    }

    private static Object copyValue(Object value) {
        if (value instanceof Map<?, ?> m) {
            return mutableCopy(m);
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(v -> copy.add(copyValue(v)));
            return copy;
        }
        return value;
    }
}
