package dev.remedy.fence.kube.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the requests one client sent to the mock API server against the ClusterRoles and Roles of an RBAC file
 * ({@code deploy/20-rbac.yaml}, the operator's, by default): each request becomes a verb (get, list, watch, create,
 * update, patch, delete), an API group, a resource, a namespace and a name, as the API server's authorizer sees it;
 * a rule with {@code resourceNames} allows only requests naming one of them. Shared with remedy-node-agent's tests
 * through fence-kube's test jar.
 */
public final class RbacCheck {

    /** The user agent of the operator's client whose requests are checked. */
    public static final String USER_AGENT = "remedy-operator-under-test";

    private static final Path RBAC = Path.of("..", "deploy", "20-rbac.yaml");

    /**
     * What a check found.
     *
     * @param seen   every request of the client, described ({@code get cluster.x-k8s.io/machines in capi})
     * @param denied the ones no rule allows
     */
    public record Requests(List<String> seen, List<String> denied) {
    }
    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/v1|apis/([^/]+)/[^/]+)(?:/namespaces/([^/]+))?/([^/?]+)(?:/([^/?]+))?(?:/([^/?]+))?");

    private RbacCheck() {
    }

    /** The requests of {@link #USER_AGENT} that no rule of deploy/20-rbac.yaml allows, described. */
    public static List<String> deniedRequests(KubernetesMockServer server, KubernetesClient client) throws Exception {
        return check(server, client, RBAC, USER_AGENT).denied();
    }

    /**
     * Takes every request the server recorded since the last take, and checks those of {@code userAgent}.
     *
     * @param server    the mock API server
     * @param client    a client of it, to parse the file
     * @param rbac      the RBAC file
     * @param userAgent the user agent of the client under test
     */
    public static Requests check(KubernetesMockServer server, KubernetesClient client, Path rbac, String userAgent)
            throws InterruptedException {
        List<HasMetadata> objects;
        try (InputStream in = Files.newInputStream(rbac)) {
            objects = client.load(in).items();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + rbac.toAbsolutePath(), e);
        }
        TreeSet<String> denied = new TreeSet<>();
        TreeSet<String> seen = new TreeSet<>();
        RecordedRequest request;
        while ((request = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
            if (!userAgent.equals(request.getHeader("User-Agent"))) {
                continue;
            }
            Matcher m = PATH.matcher(request.getPath());
            if (!m.find()) {
                denied.add("unparsed " + request.getMethod() + " " + request.getPath());
                continue;
            }
            String group = m.group(1) == null ? "" : m.group(1);
            String namespace = m.group(2);
            String resource = m.group(3);
            boolean named = m.group(4) != null;
            String name = m.group(4); // a rule with resourceNames allows only requests that name one of them
            if (m.group(2) == null && "namespaces".equals(resource) && m.group(5) != null) {
                resource = m.group(5); // /namespaces/NS/RESOURCE matched as resource=namespaces, name=NS
            }
            String verb = verb(request.getMethod(), named, request.getPath().contains("watch=true"));
            String described = verb + " " + (group.isEmpty() ? "" : group + "/") + resource
                    + (namespace == null ? "" : " in " + namespace);
            seen.add(described);
            if (!allowed(objects, verb, group, resource, namespace, name)) {
                denied.add(described);
            }
        }
        return new Requests(List.copyOf(seen), List.copyOf(denied));
    }

    private static String verb(String method, boolean named, boolean watch) {
        return switch (method) {
            case "GET" -> watch ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> method;
        };
    }

    private static boolean allowed(List<HasMetadata> objects, String verb, String group, String resource,
                                   String namespace, String name) {
        for (HasMetadata object : objects) {
            List<PolicyRule> rules = object instanceof ClusterRole role ? role.getRules()
                    : object instanceof Role role && role.getMetadata().getNamespace().equals(namespace)
                    ? role.getRules() : List.of();
            for (PolicyRule rule : rules) {
                if (rule.getApiGroups().contains(group) && rule.getResources().contains(resource)
                        && rule.getVerbs().contains(verb) && (rule.getResourceNames() == null
                        || rule.getResourceNames().isEmpty() || rule.getResourceNames().contains(name))) {
                    return true;
                }
            }
        }
        return false;
    }
}
