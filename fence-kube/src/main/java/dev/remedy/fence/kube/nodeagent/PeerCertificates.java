package dev.remedy.fence.kube.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.fence.kube.nodeagent.internal.PeerPki;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The node agents' mutual-TLS Secret {@link NodeAgentContract#TLS_SECRET}, created and renewed by the operator: a
 * CA of its own in Secret {@link #CA_SECRET} (read by the operator only), and one certificate for every agent, valid
 * for TLS server and client authentication, in the agents' Secret with the CA ({@code tls.crt}, {@code tls.key} in
 * PKCS#8, {@code ca.crt}). The agents accept only peers the CA signed, so no anonymous peer can declare a node
 * unhealthy.
 *
 * <p>{@link #ensure()} creates what is missing and renews the agents' certificate {@link #RENEW_BEFORE} before it
 * expires, with the same CA (agents that still run with the old certificate keep trusting the new one). It never
 * touches a Secret it did not create: one without the label {@value #MANAGED_BY_LABEL}={@value #MANAGED_BY}, or
 * issued by cert-manager (annotation {@value #CERT_MANAGER_ANNOTATION}), is left to its owner. Two replicas racing
 * to create settle on the first one's Secret; an update is guarded by the Secret's resourceVersion. Each call reads
 * two Secrets; creating or renewing writes at most two. Thread-safe.
 */
public final class PeerCertificates {

    /** The Secret with the CA's certificate and key ({@code ca.crt}, {@code ca.key}); never mounted in agents. */
    public static final String CA_SECRET = "remedy-node-agent-ca";
    /** The label that marks the Secrets remedy manages. */
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    /** The value of {@link #MANAGED_BY_LABEL}. */
    public static final String MANAGED_BY = "remedy";
    /** cert-manager's annotation on the Secrets it issues: such a Secret is never remedy's. */
    public static final String CERT_MANAGER_ANNOTATION = "cert-manager.io/certificate-name";
    /** The CA's validity. */
    public static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /** The agents' certificate's validity. */
    public static final Duration CERTIFICATE_VALIDITY = Duration.ofDays(365);
    /** How long before its end the agents' certificate is renewed. */
    public static final Duration RENEW_BEFORE = Duration.ofDays(30);

    private static final String CA_KEY_KEY = "ca.key";

    private final KubernetesClient client;
    private final String namespace;
    private final TimeSource time;

    /**
     * The Secrets of {@code namespace}.
     *
     * @param client    the operator's client
     * @param namespace where the agents run ({@link NodeAgentContract#DEFAULT_NAMESPACE})
     * @param time      the time the certificates' validity counts from
     */
    public PeerCertificates(KubernetesClient client, String namespace, TimeSource time) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** What {@link #ensure()} did. */
    public enum Action {
        /** The Secrets did not exist: created. */
        CREATED,
        /** The agents' certificate was near its end, unreadable or not of the CA: a new one was issued. */
        RENEWED,
        /** Nothing to do. */
        CURRENT,
        /** A Secret exists that remedy did not create: left to its owner. */
        LEFT_ALONE
    }

    /**
     * The outcome.
     *
     * @param action   what was done
     * @param notAfter when the agents' certificate expires, when remedy manages it
     * @param detail   what was found, in words
     */
    public record Outcome(Action action, Optional<Instant> notAfter, String detail) {
        /** Validates. */
        public Outcome {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(notAfter, "notAfter");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * Creates or renews what needs it.
     *
     * @throws KubernetesClientException if the API server refuses or cannot be reached (call again later)
     */
    public Outcome ensure() {
        try {
            return ensureOnce();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            return ensureOnce(); // another replica wrote first: judge what it wrote
        }
    }

    private Outcome ensureOnce() {
        Secret tls = read(NodeAgentContract.TLS_SECRET);
        Secret caSecret = read(CA_SECRET);
        Optional<String> foreign = foreign(tls, NodeAgentContract.TLS_SECRET).or(() -> foreign(caSecret, CA_SECRET));
        if (foreign.isPresent()) {
            return new Outcome(Action.LEFT_ALONE, Optional.empty(), foreign.get());
        }
        Instant now = time.instant();
        Optional<PeerPki.Authority> ca = Optional.ofNullable(caSecret).flatMap(this::authority);
        Optional<X509Certificate> current = Optional.ofNullable(tls)
                .flatMap(s -> value(s, NodeAgentContract.TLS_CERT_KEY)).flatMap(PeerCertificates::parse);
        if (ca.isPresent() && current.isPresent() && PeerPki.signedBy(current.get(), ca.get().certificate())) {
            Instant notAfter = current.get().getNotAfter().toInstant();
            if (now.isBefore(notAfter.minus(RENEW_BEFORE))) {
                return new Outcome(Action.CURRENT, Optional.of(notAfter), "the node agents' certificate in Secret "
                        + where(NodeAgentContract.TLS_SECRET) + " is valid until " + notAfter + "; it is renewed "
                        + RENEW_BEFORE.toDays() + " days before");
            }
        }
        PeerPki.Authority authority = ca.orElseGet(() -> createAuthority(caSecret, now));
        PeerPki.Issued issued = PeerPki.issue(authority, NodeAgentContract.NAME, now, CERTIFICATE_VALIDITY);
        Map<String, String> data = new LinkedHashMap<>();
        data.put(NodeAgentContract.TLS_CERT_KEY, encode(PeerPki.pem(issued.certificate())));
        data.put(NodeAgentContract.TLS_KEY_KEY, encode(PeerPki.pem(issued.key())));
        data.put(NodeAgentContract.TLS_CA_KEY, encode(PeerPki.pem(authority.certificate())));
        Instant notAfter = issued.certificate().getNotAfter().toInstant();
        if (tls == null) {
            client.secrets().inNamespace(namespace).resource(secret(NodeAgentContract.TLS_SECRET,
                    "kubernetes.io/tls", data, null)).create();
            return new Outcome(Action.CREATED, Optional.of(notAfter), "created Secret "
                    + where(NodeAgentContract.TLS_SECRET) + " for the node agents' mutual TLS, valid until "
                    + notAfter);
        }
        client.secrets().inNamespace(namespace).resource(secret(NodeAgentContract.TLS_SECRET, "kubernetes.io/tls",
                data, tls.getMetadata().getResourceVersion())).update();
        return new Outcome(Action.RENEWED, Optional.of(notAfter), "renewed the node agents' certificate in Secret "
                + where(NodeAgentContract.TLS_SECRET) + ", valid until " + notAfter + " (" + renewalReason(current,
                ca, now) + "); agents read it when they start: restart them to use it before the old one ends");
    }

    private PeerPki.Authority createAuthority(Secret existing, Instant now) {
        PeerPki.Authority created = PeerPki.authority(NodeAgentContract.NAME + "-ca", now, CA_VALIDITY);
        Map<String, String> data = new LinkedHashMap<>();
        data.put(NodeAgentContract.TLS_CA_KEY, encode(PeerPki.pem(created.certificate())));
        data.put(CA_KEY_KEY, encode(PeerPki.pem(created.key())));
        if (existing == null) {
            client.secrets().inNamespace(namespace).resource(secret(CA_SECRET, "Opaque", data, null)).create();
        } else {
            client.secrets().inNamespace(namespace).resource(secret(CA_SECRET, "Opaque", data,
                    existing.getMetadata().getResourceVersion())).update();
        }
        return created;
    }

    private static String renewalReason(Optional<X509Certificate> current, Optional<PeerPki.Authority> ca,
            Instant now) {
        if (current.isEmpty()) {
            return "the previous one was missing or not a certificate";
        }
        if (ca.isEmpty() || !PeerPki.signedBy(current.get(), ca.get().certificate())) {
            return "the previous one was not signed by the CA of Secret " + CA_SECRET;
        }
        return "the previous one ends at " + current.get().getNotAfter().toInstant() + ", within "
                + RENEW_BEFORE.toDays() + " days of " + now;
    }

    private Optional<PeerPki.Authority> authority(Secret secret) {
        Optional<X509Certificate> certificate = value(secret, NodeAgentContract.TLS_CA_KEY)
                .flatMap(PeerCertificates::parse);
        Optional<byte[]> key = value(secret, CA_KEY_KEY);
        if (certificate.isEmpty() || key.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PeerPki.Authority(certificate.get(), PeerPki.privateKey(key.get())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private Optional<String> foreign(Secret secret, String name) {
        if (secret == null) {
            return Optional.empty();
        }
        Map<String, String> labels = Optional.ofNullable(secret.getMetadata().getLabels()).orElse(Map.of());
        Map<String, String> annotations = Optional.ofNullable(secret.getMetadata().getAnnotations()).orElse(Map.of());
        if (annotations.containsKey(CERT_MANAGER_ANNOTATION)) {
            return Optional.of("Secret " + where(name) + " is issued by cert-manager (Certificate "
                    + annotations.get(CERT_MANAGER_ANNOTATION) + "): remedy leaves it to cert-manager");
        }
        if (!MANAGED_BY.equals(labels.get(MANAGED_BY_LABEL))) {
            return Optional.of("Secret " + where(name) + " was not created by remedy (no label " + MANAGED_BY_LABEL
                    + "=" + MANAGED_BY + "): remedy leaves it to its owner; delete it, and " + (name.equals(CA_SECRET)
                    ? NodeAgentContract.TLS_SECRET : CA_SECRET) + " if it is not remedy's either, for remedy to"
                    + " create its own");
        }
        return Optional.empty();
    }

    private Secret read(String name) {
        return client.secrets().inNamespace(namespace).withName(name).get();
    }

    private Secret secret(String name, String type, Map<String, String> data, String resourceVersion) {
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withResourceVersion(resourceVersion)
                .addToLabels(MANAGED_BY_LABEL, MANAGED_BY).addToLabels(NodeAgentContract.NAME_LABEL,
                        NodeAgentContract.NAME).endMetadata().withType(type).withData(data).build();
    }

    private static Optional<byte[]> value(Secret secret, String key) {
        String encoded = secret.getData() == null ? null : secret.getData().get(key);
        if (encoded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Base64.getDecoder().decode(encoded));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<X509Certificate> parse(byte[] pem) {
        try {
            return Optional.of(PeerPki.certificate(pem));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private String where(String name) {
        return namespace + "/" + name;
    }

    private static String encode(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }
}
