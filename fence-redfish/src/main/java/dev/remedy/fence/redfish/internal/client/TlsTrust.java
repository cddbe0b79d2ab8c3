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
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
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
            return context(factory.getTrustManagers());
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
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot fingerprint a certificate: " + e.getMessage(), e);
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
    private static final class PinningTrustManager extends X509ExtendedTrustManager {
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
            try {
                byte[] actual = MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded());
                if (!MessageDigest.isEqual(actual, pin)) {
                    throw new CertificateException("the server certificate's SHA-256 fingerprint "
                            + HexFormat.ofDelimiter(":").formatHex(actual) + " is not the pinned one (tls_fingerprint)");
                }
            } catch (GeneralSecurityException e) {
                throw new CertificateException("cannot fingerprint the server certificate", e);
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

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
