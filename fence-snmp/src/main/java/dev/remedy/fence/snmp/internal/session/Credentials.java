package dev.remedy.fence.snmp.internal.session;

import dev.remedy.spi.config.Secret;
import java.util.Objects;
import java.util.Optional;

/** What a request is authorised with: a community (v1, v2c) or an SNMPv3 user. Secrets print masked. */
public sealed interface Credentials {

    /**
     * An SNMPv1 or v2c community.
     *
     * @param community the community string, a secret
     */
    record Community(Secret community) implements Credentials {

        /** Checks for null. */
        public Community {
            Objects.requireNonNull(community, "community");
        }
    }

    /**
     * An SNMPv3 user of the user-based security model.
     *
     * @param name           the security name
     * @param level          the security level
     * @param auth           the authentication protocol, present from authNoPriv
     * @param authPassphrase its passphrase (at least 8 characters)
     * @param priv           the privacy protocol, present at authPriv
     * @param privPassphrase its passphrase (at least 8 characters)
     */
    record User(String name, SecurityLevel level, Optional<AuthProtocol> auth, Optional<Secret> authPassphrase,
            Optional<PrivProtocol> priv, Optional<Secret> privPassphrase) implements Credentials {

        /** Checks that the level and the protocols agree. */
        public User {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(level, "level");
            if (level.authenticates() != (auth.isPresent() && authPassphrase.isPresent())
                    || level.encrypts() != (priv.isPresent() && privPassphrase.isPresent())) {
                throw new IllegalArgumentException("security level " + level.code() + " does not match the protocols");
            }
        }
    }
}
