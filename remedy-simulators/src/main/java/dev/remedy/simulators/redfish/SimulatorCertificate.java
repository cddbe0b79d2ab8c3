package dev.remedy.simulators.redfish;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The self-signed certificate a TLS {@link RedfishSimulator} generates at start (an EC P-256 key, valid from a
 * day ago for ten years, for {@code 127.0.0.1} and {@code localhost}), with what a client needs to trust it: the
 * PEM text, the SHA-256 fingerprint and an {@link SSLContext} that trusts this certificate alone. Immutable.
 */
public final class SimulatorCertificate {

    /** The subject and issuer common name. */
    public static final String COMMON_NAME = "remedy Redfish simulator";

    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final char[] KEY_PASSWORD = "remedy-simulator".toCharArray();

    private final X509Certificate certificate;
    private final KeyPair keys;

    private SimulatorCertificate(X509Certificate certificate, KeyPair keys) {
        this.certificate = certificate;
        this.keys = keys;
    }

    /**
     * Generates a new key pair and a self-signed certificate (built with Bouncy Castle's certificate builder,
     * signed by the JDK's ECDSA).
     *
     * @param subjectAltNames whether the certificate names {@code 127.0.0.1} and {@code localhost}; without, it has
     *     only its common name, which no host name verification accepts
     *
     * @throws IllegalStateException if the JDK lacks EC keys or ECDSA signatures
     */
    static SimulatorCertificate generate(boolean subjectAltNames) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            X500Name name = new X500Name("CN=" + COMMON_NAME);
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(63, new SecureRandom()).add(BigInteger.ONE), Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(Duration.ofDays(3650))), name, keys.getPublic());
            if (subjectAltNames) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.dNSName, "localhost")}));
            }
            ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(keys.getPrivate());
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(builder.build(signer));
            certificate.verify(keys.getPublic());
            return new SimulatorCertificate(certificate, keys);
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
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
