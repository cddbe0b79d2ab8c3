package dev.remedy.fence.kube.config;

import dev.remedy.core.topology.SecretRef;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.RemedyException;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;

/**
 * Reads {@code {secret: {name: N, key: K}}} references from Kubernetes Secrets in the operator's namespace; other
 * references ({@code {env: VAR}}, {@code {file: PATH}}) go to another resolver, {@link SecretResolver#system()} by
 * default.
 *
 * <p>The key's value (base64 in the Secret's {@code data}) is decoded as UTF-8 text with one trailing line break
 * removed (as {@code kubectl create secret --from-file} keeps the file's), like a secret file. A missing Secret, a
 * missing key, an empty value, a value over {@link SecretResolver#MAX_FILE_BYTES}, one that is not UTF-8 text and
 * a refused read (RBAC) are each a {@link RemedyException} naming the Secret and key and what to do; no message
 * holds a value. Each call reads the Secret once (a GET, blocking on the host's client); build plans once, as
 * {@link dev.remedy.core.topology.FenceConfiguration#planSource} does. Thread-safe.
 */
public final class KubeSecretResolver implements SecretResolver {

    private final KubernetesClient client;
    private final String namespace;
    private final SecretResolver others;

    /** Reads Secrets of {@code namespace} with {@code client}, and other references with the system resolver. */
    public KubeSecretResolver(KubernetesClient client, String namespace) {
        this(client, namespace, SecretResolver.system());
    }

    /** Reads Secrets of {@code namespace} with {@code client}, and other references with {@code others}. */
    public KubeSecretResolver(KubernetesClient client, String namespace, SecretResolver others) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.others = Objects.requireNonNull(others, "others");
    }

    @Override
    public dev.remedy.spi.config.Secret resolve(SecretRef ref) {
        Objects.requireNonNull(ref, "ref");
        if (ref.kind() != SecretRef.Kind.SECRET) {
            return others.resolve(ref);
        }
        String where = "key '" + ref.secretKey() + "' of Secret '" + namespace + "/" + ref.secretName() + "'";
        Secret secret = read(ref.secretName(), where);
        if (secret == null) {
            throw new RemedyException("Secret '" + namespace + "/" + ref.secretName() + "' does not exist; create it "
                    + "in the operator's namespace with the key '" + ref.secretKey() + "'");
        }
        Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
        String encoded = data.get(ref.secretKey());
        if (encoded == null) {
            throw new RemedyException(where + " does not exist; the Secret has " + (data.isEmpty() ? "no keys"
                    : "the keys " + String.join(", ", data.keySet().stream().sorted().toList()))
                    + ": add the key or correct the reference");
        }
        // Checked before decoding: base64 is 4 characters per 3 bytes.
        if ((long) encoded.length() > 4L * ((MAX_FILE_BYTES + 2) / 3)) {
            throw new RemedyException(where + " is larger than " + MAX_FILE_BYTES / 1024 + " KiB; a secret is a "
                    + "password, a token or a key passphrase: put only that there");
        }
        String text = decode(encoded, where);
        if (text.isEmpty()) {
            throw new RemedyException(where + " is empty; put the secret there (an empty secret is never a password)");
        }
        return dev.remedy.spi.config.Secret.of(text);
    }

    /** The Secret, or null if it does not exist; an API failure is named without its body. */
    private Secret read(String name, String where) {
        try {
            return client.secrets().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            String why = switch (e.getCode()) {
                case 401, 403 -> "the operator may not read it (HTTP " + e.getCode() + "): give its ServiceAccount "
                        + "get on secrets in namespace '" + namespace + "'";
                default -> "the API server answered " + (e.getCode() > 0 ? "HTTP " + e.getCode()
                        : "nothing (" + e.getClass().getSimpleName() + ")") + "; check the connection and retry";
            };
            throw new RemedyException("cannot read " + where + ": " + why, e);
        }
    }

    private static String decode(String encoded, String where) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new RemedyException(where + " is not base64 data; write the Secret with kubectl or stringData");
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new RemedyException(where + " is larger than " + MAX_FILE_BYTES / 1024 + " KiB; a secret is a "
                    + "password, a token or a key passphrase: put only that there");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new RemedyException(where + " is not UTF-8 text; a secret parameter is text");
        }
        if (text.endsWith("\r\n")) {
            return text.substring(0, text.length() - 2);
        }
        return text.endsWith("\n") || text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
}
