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
import java.security.MessageDigest;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The peers' mutual TLS: every agent presents the certificate of the Secret
 * {@link dev.remedy.core.nodeagent.NodeAgentContract#TLS_SECRET} and accepts only peers whose certificate the Secret's
 * CA signed, in both directions. An agent without such a certificate cannot ask, and cannot answer: no anonymous
 * peer can declare a node unhealthy. The peers' host names are not checked (agents are reached at node addresses,
 * which a shared certificate cannot list); the CA is the identity.
 *
 * <p>Files in PEM: the certificate (its chain may follow), a PKCS#8 private key ({@code BEGIN PRIVATE KEY}; RSA or
 * EC), the CA certificate(s). The operator renews the certificate in the Secret before it ends, and the kubelet
 * updates the mounted files: {@link #reloadIfChanged()} takes the new ones for the next handshakes, so an agent that
 * runs for longer than a certificate lives keeps talking to its peers. Thread-safe.
 */
public final class PeerTls {

    /** The TLS versions offered. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SSLContext context;
    private final Switching keys;
    private final CaOnly trust;
    /** The files read by {@link #load}, in its order; empty for {@link #of}. */
    private final List<Path> files;
    private volatile List<byte[]> read;

    private PeerTls(SSLContext context, Switching keys, CaOnly trust, List<Path> files, List<byte[]> read) {
        this.context = context;
        this.keys = keys;
        this.trust = trust;
        this.files = files;
        this.read = read;
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
        List<Path> files = List.of(certificate, privateKey, ca);
        List<byte[]> read = read(files);
        Managers managers = managers(files, read);
        try {
            return create(managers, files, read);
        } catch (GeneralSecurityException e) {
            throw unusable(files, e);
        }
    }

    /**
     * Reads the files of {@link #load} again, and if they changed, uses them for the handshakes from now on.
     *
     * @return whether they changed and are used now
     * @throws IOException if changed files cannot be read or used; the ones in use stay in use
     */
    public boolean reloadIfChanged() throws IOException {
        if (files.isEmpty()) {
            return false;
        }
        List<byte[]> now = read(files);
        List<byte[]> before = read;
        boolean same = true;
        for (int i = 0; i < now.size(); i++) {
            same &= MessageDigest.isEqual(now.get(i), before.get(i));
        }
        if (same) {
            return false;
        }
        Managers managers = managers(files, now);
        keys.use(managers.keys());
        trust.use(managers.trust());
        read = now;
        return true;
    }

    /**
     * Whether the client of {@code session} presents a certificate the CA in use signed. A session resumed from one
     * made before a reload skips the handshake's check: the server calls this on every request.
     */
    boolean trustsClient(SSLSession session) {
        return trusts(session, true);
    }

    /** Whether the server of {@code session} presents a certificate the CA in use signed (see {@link #trustsClient}). */
    boolean trustsServer(SSLSession session) {
        return trusts(session, false);
    }

    private boolean trusts(SSLSession session, boolean client) {
        try {
            Certificate[] peer = session.getPeerCertificates();
            X509Certificate[] chain = new X509Certificate[peer.length];
            for (int i = 0; i < peer.length; i++) {
                chain[i] = (X509Certificate) peer[i];
            }
            if (client) {
                trust.checkClientTrusted(chain, chain[0].getPublicKey().getAlgorithm());
            } else {
                trust.checkServerTrusted(chain, "UNKNOWN");
            }
            return true;
        } catch (SSLPeerUnverifiedException | CertificateException | ClassCastException
                | ArrayIndexOutOfBoundsException e) {
            return false;
        }
    }

    private static List<byte[]> read(List<Path> files) throws IOException {
        List<byte[]> read = new ArrayList<>(files.size());
        for (Path file : files) {
            read.add(Files.readAllBytes(Objects.requireNonNull(file, "file")));
        }
        return read;
    }

    private static Managers managers(List<Path> files, List<byte[]> read) throws IOException {
        List<X509Certificate> chain = certificates(files.get(0), read.get(0));
        PrivateKey key = privateKey(files.get(1), read.get(1));
        List<X509Certificate> anchors = certificates(files.get(2), read.get(2));
        try {
            return Managers.of(key, chain, anchors);
        } catch (GeneralSecurityException e) {
            throw unusable(files, e);
        }
    }

    private static IOException unusable(List<Path> files, GeneralSecurityException e) {
        return new IOException("the peer TLS files " + files.get(0) + ", " + files.get(1) + " and " + files.get(2)
                + " do not make a TLS context (" + e.getClass().getSimpleName() + "); check that the key matches the "
                + "certificate", e);
    }

    /**
     * A context from values (tests, or keys not in files).
     *
     * @throws GeneralSecurityException if the key and certificates cannot be used
     */
    public static PeerTls of(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> anchors)
            throws GeneralSecurityException {
        return create(Managers.of(key, chain, anchors), List.of(), List.of());
    }

    private static PeerTls create(Managers managers, List<Path> files, List<byte[]> read)
            throws GeneralSecurityException {
        Switching keys = new Switching(managers.keys());
        CaOnly trust = new CaOnly(managers.trust());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {keys}, new TrustManager[] {trust}, null);
        return new PeerTls(context, keys, trust, files, read);
    }

    /** A key manager and a trust manager of one set of files. */
    private record Managers(X509ExtendedKeyManager keys, X509ExtendedTrustManager trust) {
        static Managers of(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> anchors)
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
            for (KeyManager km : kmf.getKeyManagers()) {
                if (km instanceof X509ExtendedKeyManager x) {
                    return new Managers(x, delegate);
                }
            }
            throw new GeneralSecurityException("the platform has no X.509 key manager");
        }
    }

    private static List<X509Certificate> certificates(Path file, byte[] bytes) throws IOException {
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

    private static PrivateKey privateKey(Path file, byte[] bytes) throws IOException {
        String pem = new String(bytes, StandardCharsets.US_ASCII);
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

    /** The key manager of the files in use. */
    private static final class Switching extends X509ExtendedKeyManager {
        private volatile X509ExtendedKeyManager delegate;

        Switching(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        void use(X509ExtendedKeyManager next) {
            delegate = next;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return delegate.getClientAliases(keyType, issuers);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseClientAlias(keyType, issuers, socket);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return delegate.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return delegate.chooseEngineClientAlias(keyType, issuers, engine);
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            return delegate.chooseEngineServerAlias(keyType, issuers, engine);
        }
    }

    /** PKIX validation against the CA in use, without host name checks: the CA is the peers' identity. */
    private static final class CaOnly extends X509ExtendedTrustManager {
        private volatile X509ExtendedTrustManager delegate;

        CaOnly(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        void use(X509ExtendedTrustManager next) {
            delegate = next;
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
