package dev.remedy.simulators.openssh;

import dev.remedy.simulators.openssh.OpenSshOptions.HostKeyType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One host key pair made by {@code ssh-keygen} in the work directory ({@code host_ed25519} or {@code host_rsa} and
 * its {@code .pub}), with what clients pin: the {@code SHA256:} fingerprint and the public key.
 *
 * @param type the key's type
 * @param privateKey the private key file (mode 600, as sshd requires)
 * @param publicKey the public key file
 * @param keyType the key type from the public key file ({@code ssh-ed25519}, {@code ssh-rsa})
 * @param base64 the public key blob, base64, from the public key file
 * @param fingerprint the fingerprint as {@code ssh-keygen -l -E sha256} prints it ({@code SHA256:…})
 */
record HostKey(HostKeyType type, Path privateKey, Path publicKey, String keyType, String base64, String fingerprint) {

    /** The comment written into the public key. */
    static final String COMMENT = "remedy-sim-host";

    /**
     * Makes a new key pair in {@code directory}, replacing the files of an earlier one.
     *
     * @throws IllegalStateException if {@code ssh-keygen} fails or prints something unexpected
     * @throws UncheckedIOException if the files cannot be replaced or read
     */
    static HostKey generate(Path directory, HostKeyType type) {
        Path privateKey = directory.resolve("host_" + type.shortName());
        Path publicKey = directory.resolve("host_" + type.shortName() + ".pub");
        try {
            // ssh-keygen asks before it overwrites a key, and nobody would answer.
            Files.deleteIfExists(privateKey);
            Files.deleteIfExists(publicKey);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace the host key files " + privateKey + "(.pub)", e);
        }
        List<String> keygen = new ArrayList<>(List.of("ssh-keygen", "-q"));
        keygen.addAll(type.keygenArguments());
        keygen.addAll(List.of("-N", "", "-C", COMMENT, "-f", privateKey.toString()));
        Commands.check("generate the sshd host key " + privateKey, Commands.of(keygen.toArray(String[]::new)));
        String[] fields = read(publicKey).strip().split(" ");
        if (fields.length < 2 || !fields[0].equals(type.keyType())) {
            throw new IllegalStateException("ssh-keygen wrote an unexpected public key to " + publicKey + ": "
                    + String.join(" ", fields));
        }
        String listing = Commands.check("fingerprint the sshd host key " + publicKey,
                Commands.of("ssh-keygen", "-l", "-E", "sha256", "-f", publicKey.toString()));
        String[] words = listing.split("\\s+");
        if (words.length < 2 || !words[1].startsWith("SHA256:")) {
            throw new IllegalStateException("unexpected output from ssh-keygen -l -E sha256 -f " + publicKey + ": "
                    + listing);
        }
        return new HostKey(type, privateKey, publicKey, fields[0], fields[1], words[1]);
    }

    /** The known_hosts line that pins this key for {@code host} on a non-standard {@code port}. */
    String knownHostsLine(String host, int port) {
        return "[" + host + "]:" + port + " " + keyType + " " + base64;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the host public key " + file, e);
        }
    }
}
