package dev.remedy.fence.redfish.internal.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS trust a Redfish connection uses: the JVM's default trust store (verification on, the default), a PEM
 * CA bundle, a pinned server certificate (its SHA-256 fingerprint), or no verification at all (only when asked
 * for, and the caller warns on every use).
 */
public final class TlsTrust {

    private TlsTrust() {
    }

    /** The JVM's default trust: certificate chain and host name verified. */
    public static SSLContext system() {
        try {
            return SSLContext.getDefault();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM has no default TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * Trusts the certificates of a PEM bundle (chain and host name verified against them).
     *
     * @throws IllegalArgumentException if the file cannot be read or holds no certificate
     */
    public static SSLContext caBundle(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            if (i == 0) {
                throw new IllegalArgumentException("ca_file " + pem + " holds no PEM certificate");
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager verifying) {
                    return context(new TrustManager[] {new HostNameExplainingTrustManager(verifying)});
                }
            }
            throw new IllegalStateException("the JVM's " + factory.getAlgorithm() + " trust managers verify no X.509 "
                    + "server certificate");
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("ca_file " + pem + " cannot be read as PEM certificates: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Trusts exactly the server certificate whose SHA-256 fingerprint is {@code fingerprint} (hex, colons and
     * case ignored), whoever signed it: for BMCs with self-signed certificates.
     *
     * @throws IllegalArgumentException if the fingerprint is not 64 hex digits
     */
    public static SSLContext pinned(String fingerprint) {
        byte[] pin = parseFingerprint(fingerprint);
        return context(new TrustManager[] {new PinningTrustManager(pin)});
    }

    /** Trusts every certificate: no protection against a man in the middle. */
    public static SSLContext insecure() {
        return context(new TrustManager[] {new PinningTrustManager(null)});
    }

    /**
     * The 32 bytes of a SHA-256 fingerprint given as hex, with or without colons.
     *
     * @throws IllegalArgumentException if it is not 64 hex digits
     */
    public static byte[] parseFingerprint(String fingerprint) {
        String hex = fingerprint.replace(":", "").strip().toLowerCase(Locale.ROOT);
        if (hex.length() != 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("tls_fingerprint must be a SHA-256 fingerprint: 64 hex digits, colons "
                    + "allowed, as 'openssl x509 -noout -fingerprint -sha256' prints it");
        }
        return HexFormat.of().parseHex(hex);
    }

    /** The SHA-256 fingerprint of a certificate, as lower-case hex with colons. */
    public static String fingerprintOf(X509Certificate certificate) {
        return HexFormat.ofDelimiter(":").formatHex(sha256(certificate));
    }

    /** The SHA-256 fingerprint of a certificate as {@code openssl x509 -fingerprint -sha256} prints it. */
    private static String opensslFingerprint(X509Certificate certificate) {
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(sha256(certificate));
    }

    private static byte[] sha256(X509Certificate certificate) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot fingerprint a certificate: " + e.getMessage(), e);
        }
    }

    /**
     * What remedy's own trust check said when it refused the server certificate, found among the causes of a TLS
     * failure: a complete explanation with what to do, which the caller shows instead of a generic hint.
     */
    static Optional<String> refusal(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof Refusal refusal) {
                return Optional.of(refusal.getMessage());
            }
        }
        return Optional.empty();
    }

    /** A certificate refused by remedy's own check, with a message that says why and what to do. */
    private static final class Refusal extends CertificateException {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }

    /** A trust manager of a client: it refuses every client certificate, since a Redfish client accepts none. */
    private abstract static class ServerOnlyTrustManager extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a Redfish client does not accept client connections");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }
    }

    /**
     * The JVM's verification against a CA bundle, which says why when the chain is trusted but the certificate
     * does not name the host: BMCs' self-signed certificates often carry no subject alternative name at all.
     */
    private static final class HostNameExplainingTrustManager extends ServerOnlyTrustManager {
        private final X509ExtendedTrustManager verifying;

        HostNameExplainingTrustManager(X509ExtendedTrustManager verifying) {
            this.verifying = verifying;
        }

        /** The failure of a check with the host name, explained if the chain alone is trusted. */
        private CertificateException explained(CertificateException failure, X509Certificate[] chain, String authType,
                String host) {
            try {
                verifying.checkServerTrusted(chain, authType);
            } catch (CertificateException chainRefused) {
                return failure;
            }
            X509Certificate certificate = chain[0];
            return new Refusal("the certificate's host name does not match '" + host + "': the certificate is "
                    + "signed by ca_file, but it names " + names(certificate) + " (" + failure.getMessage()
                    + "); connect with a name it carries, or pin this certificate alone with tls_fingerprint="
                    + opensslFingerprint(certificate) + " instead of ca_file");
        }

        private static String names(X509Certificate certificate) {
            try {
                Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
                String subject = "subject " + Text.excerpt(certificate.getSubjectX500Principal().getName(),
                        Text.VALUE);
                return alternatives == null || alternatives.isEmpty() ? subject + " and no subject alternative name"
                        : "the subject alternative names " + Text.excerpt(alternatives.stream().map(name -> name.get(1))
                                .toList().toString(), Text.VALUE);
            } catch (CertificateParsingException e) {
                return "subject alternative names that cannot be parsed";
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            try {
                verifying.checkServerTrusted(chain, authType, engine);
            } catch (CertificateException e) {
                throw explained(e, chain, authType, engine == null ? "?" : engine.getPeerHost());
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            try {
                verifying.checkServerTrusted(chain, authType, socket);
            } catch (CertificateException e) {
                throw explained(e, chain, authType, socket == null ? "?" : socket.getInetAddress().getHostAddress());
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            verifying.checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return verifying.getAcceptedIssuers();
        }
    }

    private static SSLContext context(TrustManager[] managers) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, managers, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** Accepts the server certificate whose fingerprint is the pin; with no pin, accepts any. */
    private static final class PinningTrustManager extends ServerOnlyTrustManager {
        private final byte[] pin;

        PinningTrustManager(byte[] pin) {
            this.pin = pin;
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (pin == null) {
                return;
            }
            if (chain == null || chain.length == 0) {
                throw new CertificateException("the server sent no certificate");
            }
            if (!MessageDigest.isEqual(sha256(chain[0]), pin)) {
                throw new Refusal("the server certificate's SHA-256 fingerprint " + opensslFingerprint(chain[0])
                        + " does not match tls_fingerprint " + HexFormat.ofDelimiter(":").withUpperCase()
                        .formatHex(pin) + "; if the BMC's certificate was replaced on purpose, check the new one "
                        + "and pin it, otherwise something else answers at this address");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
