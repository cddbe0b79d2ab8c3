package dev.remedy.nodeagent;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A CA and certificates it signs, generated in the test with Bouncy Castle, as the operator's Secret holds them. */
final class TestPki {

    private final KeyPair caKeys;
    private final X509Certificate ca;
    private long serial = 2;

    private TestPki(KeyPair caKeys, X509Certificate ca) {
        this.caKeys = caKeys;
        this.ca = ca;
    }

    /** A new CA named {@code name}. */
    static TestPki create(String name) throws GeneralSecurityException, IOException {
        KeyPair keys = keys();
        X500Name subject = new X500Name("CN=" + name);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, BigInteger.ONE, notBefore(),
                notAfter(), subject, keys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        return new TestPki(keys, sign(b, keys));
    }

    /** A certificate and key for the agents, signed by this CA, written as the Secret's three files in {@code dir}. */
    Path issue(Path dir, String name) throws GeneralSecurityException, IOException {
        KeyPair keys = keys();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                new X500Name(ca.getSubjectX500Principal().getName()), BigInteger.valueOf(serial++), notBefore(),
                notAfter(), new X500Name("CN=" + name), keys.getPublic());
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        X509Certificate cert = sign(b, caKeys);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tls.crt"), pem(cert));
        Files.writeString(dir.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        Files.writeString(dir.resolve("ca.crt"), pem(ca));
        return dir;
    }

    /** The TLS of the files {@link #issue} wrote. */
    static PeerTls load(Path dir) throws IOException {
        return PeerTls.load(dir.resolve("tls.crt"), dir.resolve("tls.key"), dir.resolve("ca.crt"));
    }

    X509Certificate ca() {
        return ca;
    }

    List<X509Certificate> anchors() {
        return List.of(ca);
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer)
            throws GeneralSecurityException {
        try {
            ContentSigner s = new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(b.build(s));
        } catch (org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static String pem(Object object) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(w)) {
            pem.writeObject(object);
        }
        return w.toString();
    }

    private static Date notBefore() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date notAfter() {
        return Date.from(Instant.now().plus(Duration.ofDays(1)));
    }
}
