package dev.remedy.cli;

import dev.remedy.spi.RemedyException;

/** Bad input on the command line; printed as one line, with exit code {@link ExitCodes#BAD_INPUT}. */
final class UserError extends RemedyException {

    UserError(String message) {
        super(message);
    }
}
