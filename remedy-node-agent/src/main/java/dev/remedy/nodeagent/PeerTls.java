package dev.remedy.nodeagent;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The peers' mutual TLS: every agent presents the certificate of the Secret
 * {@link dev.remedy.core.nodeagent.NodeAgentContract#TLS_SECRET} and accepts only peers whose certificate the Secret's
 * CA signed, in both directions. An agent without such a certificate cannot ask, and cannot answer: no anonymous
 * peer can declare a node unhealthy. The peers' host names are not checked (agents are reached at node addresses,
 * which a shared certificate cannot list); the CA is the identity.
 *
 * <p>Files in PEM: the certificate (its chain may follow), a PKCS#8 private key ({@code BEGIN PRIVATE KEY}; RSA or
 * EC), the CA certificate(s).
 */
public final class PeerTls {

    /** The TLS versions offered. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SSLContext context;

    private PeerTls(SSLContext context) {
        this.context = context;
    }

    /** The context, with this agent's key and the CA as the only trust anchor. */
    public SSLContext context() {
        return context;
    }

    /**
     * Reads the three files of the mounted Secret.
     *
     * @throws IOException if a file cannot be read or parsed; the message names the file, never its content
     */
    public static PeerTls load(Path certificate, Path privateKey, Path ca) throws IOException {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(ca, "ca");
        List<X509Certificate> chain = certificates(certificate);
        List<X509Certificate> anchors = certificates(ca);
        PrivateKey key = privateKey(privateKey);
        try {
            return of(key, chain, anchors);
        } catch (GeneralSecurityException e) {
            throw new IOException("the peer TLS files " + certificate + ", " + privateKey + " and " + ca + " do not "
                    + "make a TLS context (" + e.getClass().getSimpleName() + "); check that the key matches the "
                    + "certificate", e);
        }
    }

    /**
     * A context from values (tests, or keys not in files).
     *
     * @throws GeneralSecurityException if the key and certificates cannot be used
     */
    public static PeerTls of(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> anchors)
            throws GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try {
            keys.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException("an empty key store cannot be created", e);
        }
        char[] password = new char[0];
        keys.setKeyEntry("agent", key, password, chain.toArray(new Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, password);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try {
            trust.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException("an empty trust store cannot be created", e);
        }
        for (int i = 0; i < anchors.size(); i++) {
            trust.setCertificateEntry("ca-" + i, anchors.get(i));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(trust);
        X509ExtendedTrustManager delegate = null;
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509ExtendedTrustManager x) {
                delegate = x;
            }
        }
        if (delegate == null) {
            throw new GeneralSecurityException("the platform has no X.509 trust manager");
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), new TrustManager[] {new CaOnly(delegate)}, null);
        return new PeerTls(context);
    }

    private static List<X509Certificate> certificates(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes));
            if (read.isEmpty()) {
                throw new IOException(file + " holds no certificate; give PEM certificates (BEGIN CERTIFICATE)");
            }
            return read.stream().map(X509Certificate.class::cast).toList();
        } catch (CertificateException e) {
            throw new IOException(file + " is not a PEM certificate (BEGIN CERTIFICATE)", e);
        }
    }

    private static PrivateKey privateKey(Path file) throws IOException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        String begin = "-----BEGIN PRIVATE KEY-----";
        String end = "-----END PRIVATE KEY-----";
        int from = pem.indexOf(begin);
        int to = pem.indexOf(end);
        if (from < 0 || to < from) {
            throw new IOException(file + " is not a PKCS#8 private key (BEGIN PRIVATE KEY); convert a PKCS#1 key "
                    + "with openssl pkcs8 -topk8 -nocrypt, or set cert-manager's privateKey.encoding: PKCS8");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": the private key is not valid base64", e);
        }
        for (String algorithm : List.of("EC", "RSA", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new IOException(file + ": the private key is neither EC, RSA nor Ed25519");
    }

    /** PKIX validation against the CA, without host name checks: the CA is the peers' identity. */
    private static final class CaOnly extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;

        CaOnly(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }
}
