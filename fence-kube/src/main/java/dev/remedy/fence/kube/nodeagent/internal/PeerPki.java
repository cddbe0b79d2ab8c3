package dev.remedy.fence.kube.nodeagent.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The node agents' small PKI, with Bouncy Castle: an ECDSA P-256 CA used for nothing else, and the agents'
 * certificate it signs, valid for TLS server and client authentication. PEM in and out; private keys in PKCS#8
 * ({@code BEGIN PRIVATE KEY}), which the agents read. No method puts key material in an exception message.
 */
public final class PeerPki {

    /** Certificates start this long before their issue, for clocks slightly behind the operator's. */
    static final Duration BACKDATE = Duration.ofMinutes(5);

    private static final SecureRandom RANDOM = new SecureRandom();

    private PeerPki() {
    }

    /** A CA: its certificate and key. */
    public record Authority(X509Certificate certificate, PrivateKey key) {
    }

    /** An issued certificate and its key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {
    }

    /** A new self-signed CA named {@code commonName}, valid from {@code now} for {@code validity}. */
    public static Authority authority(String commonName, Instant now, Duration validity) {
        KeyPair keys = keys();
        X500Name name = new X500Name("CN=" + commonName);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(), from(now), until(now, validity),
                name, keys.getPublic());
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            return new Authority(sign(b, keys.getPrivate()), keys.getPrivate());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the node agents' CA cannot be built: " + e.getClass().getSimpleName(), e);
        }
    }

    /** A certificate for the agents named {@code commonName}, signed by {@code ca}, for TLS server and client. */
    public static Issued issue(Authority ca, String commonName, Instant now, Duration validity) {
        KeyPair keys = keys();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(ca.certificate(), serial(), from(now),
                until(now, validity), new X500Name("CN=" + commonName), keys.getPublic());
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                    new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false,
                    ext.createAuthorityKeyIdentifier(ca.certificate()));
            return new Issued(sign(b, ca.key()), keys.getPrivate());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the node agents' certificate cannot be built: "
                    + e.getClass().getSimpleName(), e);
        }
    }

    /** Whether {@code certificate} carries a valid signature of {@code ca}'s key. */
    public static boolean signedBy(X509Certificate certificate, X509Certificate ca) {
        try {
            certificate.verify(ca.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** {@code certificate} in PEM. */
    public static String pem(X509Certificate certificate) {
        return write(certificate);
    }

    /** {@code key} in PEM, PKCS#8. */
    public static String pem(PrivateKey key) {
        try {
            return write(new JcaPKCS8Generator(key, null));
        } catch (IOException e) {
            throw new IllegalStateException("a private key cannot be encoded in PKCS#8", e);
        }
    }

    /**
     * The first certificate of {@code pem}.
     *
     * @throws IllegalArgumentException if there is none; the message says what was expected, never the content
     */
    public static X509Certificate certificate(byte[] pem) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(pem));
        } catch (CertificateException e) {
            throw new IllegalArgumentException("not a PEM certificate (BEGIN CERTIFICATE)");
        }
    }

    /**
     * The private key of {@code pem} (PKCS#8).
     *
     * @throws IllegalArgumentException if there is none; the message never holds the content
     */
    public static PrivateKey privateKey(byte[] pem) {
        try (PEMParser parser = new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
            Object read = parser.readObject();
            if (read instanceof PrivateKeyInfo info) {
                return new JcaPEMKeyConverter().getPrivateKey(info);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a PEM private key (" + e.getClass().getSimpleName() + ")");
        }
        throw new IllegalArgumentException("not a PKCS#8 private key (BEGIN PRIVATE KEY)");
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("no SHA256withECDSA signer", e);
        }
    }

    private static KeyPair keys() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the platform cannot generate P-256 keys", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }

    private static Date from(Instant now) {
        return Date.from(now.minus(BACKDATE));
    }

    private static Date until(Instant now, Duration validity) {
        return Date.from(now.plus(validity));
    }

    private static String write(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(object);
        } catch (IOException e) {
            throw new IllegalStateException("PEM cannot be written", e);
        }
        return out.toString();
    }
}
