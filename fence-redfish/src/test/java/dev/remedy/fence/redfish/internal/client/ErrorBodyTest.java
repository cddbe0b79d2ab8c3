package dev.remedy.fence.redfish.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.config.Secret;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ErrorBodyTest {

    private static final Secret PASSWORD = Secret.of("echoed-password");

    private static String describe(String body) {
        return ErrorBody.describe(body.getBytes(StandardCharsets.UTF_8), PASSWORD);
    }

    @Test
    @DisplayName("the message and every extended info message, with resolutions, make the detail")
    void extendedInfo() {
        assertThat(describe("""
                {"error": {"code": "Base.1.8.GeneralError", "message": "A general error has occurred.",
                  "@Message.ExtendedInfo": [
                    {"MessageId": "Base.1.8.ActionParameterNotSupported",
                     "Message": "The parameter ResetType is not supported on the target resource.",
                     "Resolution": "Remove the parameter supplied and resubmit the request."}]}}
                """)).isEqualTo("A general error has occurred.; The parameter ResetType is not supported on the "
                + "target resource. (Remove the parameter supplied and resubmit the request.)");
    }

    @Test
    @DisplayName("an error with only a code, a body that is not JSON, and no body are each described")
    void otherBodies() {
        assertThat(describe("{\"error\": {\"code\": \"Base.1.8.InternalError\"}}")).isEqualTo("Base.1.8.InternalError");
        assertThat(describe("<html><body>Bad   Gateway</body></html>")).isEqualTo("body: <html><body>Bad Gateway"
                + "</body></html>");
        assertThat(ErrorBody.describe(new byte[0], PASSWORD)).isEqualTo("no error details");
        assertThat(describe("x".repeat(500))).hasSize("body: ".length() + 121).endsWith("…");
    }

    @Test
    @DisplayName("a message of only control or non-breaking space characters is no message: the body is shown")
    void invisibleMessages() {
        assertThat(describe("{\"error\": {\"message\": \"\\u00a0\", \"code\": \"\\u0000\"}}"))
                .isEqualTo("body: {\"error\": {\"message\": \"\\u00a0\", \"code\": \"\\u0000\"}}");
        assertThat(describe("{\"error\": {\"message\": \"\u00a0\u2007\", \"code\": \"Base.1.8.GeneralError\"}}"))
                .isEqualTo("Base.1.8.GeneralError");
    }

    @Test
    @DisplayName("an echoed body has the password masked before the excerpt is cut, so no part of it is left")
    void echoedPasswordMaskedBeforeTheCut() {
        String echoed = "{\"Note\":\"" + "n".repeat(90) + "\",\"Password\":\"" + PASSWORD.reveal()
                + "\",\"UserName\":\"" + "u".repeat(50) + "\"}";
        assertThat(echoed.indexOf(PASSWORD.reveal())).as("the password straddles the cut").isBetween(110, 119);

        String detail = describe(echoed);

        assertThat(detail).endsWith("…").doesNotContain("echoed-").contains("\"Password\":\"" + Secret.MASK);
        assertThat(describe("{\"Password\":\"" + PASSWORD.reveal() + "\"}")).isEqualTo("body: {\"Password\":\""
                + Secret.MASK + "\"}");
    }
}
