package dev.remedy.testkit.redfish;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Base64;
import java.util.HexFormat;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The self-signed certificate a TLS {@link RedfishSimulator} generates at start (an EC P-256 key, valid from a
 * day ago for ten years, for {@code 127.0.0.1} and {@code localhost}), with what a client needs to trust it: the
 * PEM text, the SHA-256 fingerprint and an {@link SSLContext} that trusts this certificate alone. Immutable.
 */
public final class SimulatorCertificate {

    /** The subject and issuer common name. */
    public static final String COMMON_NAME = "remedy Redfish simulator";

    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME_OID = "2.5.4.3";
    private static final String SUBJECT_ALT_NAME_OID = "2.5.29.17";
    private static final char[] KEY_PASSWORD = "remedy-simulator".toCharArray();

    private final X509Certificate certificate;
    private final KeyPair keys;

    private SimulatorCertificate(X509Certificate certificate, KeyPair keys) {
        this.certificate = certificate;
        this.keys = keys;
    }

    /**
     * Generates a new key pair and self-signed certificate with JDK APIs only (no keytool, no internal classes).
     *
     * @throws IllegalStateException if the JDK lacks EC keys or ECDSA signatures
     */
    static SimulatorCertificate generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
            byte[] name = Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME_OID), Der.utf8(COMMON_NAME))));
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            byte[] altNames = Der.sequence(Der.tlv(0x87, new byte[] {127, 0, 0, 1}),
                    Der.tlv(0x82, "localhost".getBytes(StandardCharsets.US_ASCII)));
            byte[] extensions = Der.explicit(3, Der.sequence(
                    Der.sequence(Der.oid(SUBJECT_ALT_NAME_OID), Der.octetString(altNames))));
            byte[] tbs = Der.sequence(
                    Der.explicit(0, Der.integer(BigInteger.TWO)),
                    Der.integer(new BigInteger(63, new SecureRandom()).add(BigInteger.ONE)),
                    algorithm,
                    name,
                    Der.sequence(Der.time(now.minusDays(1)), Der.time(now.plusYears(10))),
                    name,
                    keys.getPublic().getEncoded(),
                    extensions);
            Signature signer = Signature.getInstance(SIGNATURE_ALGORITHM);
            signer.initSign(keys.getPrivate());
            signer.update(tbs);
            byte[] encoded = Der.sequence(tbs, algorithm, Der.bitString(signer.sign()));
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(encoded));
            certificate.verify(keys.getPublic());
            return new SimulatorCertificate(certificate, keys);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate the simulator's self-signed certificate: " + e, e);
        }
    }

    /** The certificate. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate in PEM ({@code -----BEGIN CERTIFICATE-----}, base64 in 64-character lines). */
    public String pem() {
        try {
            String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(certificate.getEncoded());
            return "-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encode the simulator certificate: " + e, e);
        }
    }

    /** The SHA-256 fingerprint of the DER certificate as upper-case hex pairs joined by colons (as openssl shows it). */
    public String sha256Fingerprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot fingerprint the simulator certificate: " + e, e);
        }
    }

    /** A new client {@link SSLContext} that trusts this certificate and nothing else. */
    public SSLContext sslContext() {
        try {
            KeyStore trust = emptyStore();
            trust.setCertificateEntry("redfish-simulator", certificate);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build an SSLContext trusting the simulator certificate: " + e, e);
        }
    }

    /** The server side: an {@link SSLContext} presenting this certificate and its key. */
    SSLContext serverContext() {
        try {
            KeyStore store = emptyStore();
            store.setKeyEntry("redfish-simulator", keys.getPrivate(), KEY_PASSWORD,
                    new X509Certificate[] {certificate});
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, KEY_PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(factory.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the simulator's server SSLContext: " + e, e);
        }
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create an empty PKCS12 key store: " + e, e);
        }
        return store;
    }

    @Override
    public String toString() {
        return "SimulatorCertificate[CN=" + COMMON_NAME + ", SHA-256 " + sha256Fingerprint() + "]";
    }
}
