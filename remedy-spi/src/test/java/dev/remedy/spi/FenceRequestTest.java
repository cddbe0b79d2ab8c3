package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceRequest, Plug and FenceStatus")
class FenceRequestTest {

    @Test
    @DisplayName("a request keeps its action and initiator")
    void keepsFields() {
        FenceRequest request = new FenceRequest(FenceAction.OFF, "engine/node-7");

        assertThat(request.action()).isEqualTo(FenceAction.OFF);
        assertThat(request.initiator()).isEqualTo("engine/node-7");
        assertThat(request).isEqualTo(new FenceRequest(FenceAction.OFF, "engine/node-7"));
    }

    @Test
    @DisplayName("of() makes a request from the unnamed caller \"api\"")
    void ofUsesApi() {
        assertThat(FenceRequest.of(FenceAction.STATUS)).isEqualTo(new FenceRequest(FenceAction.STATUS, "api"));
    }

    @Test
    @DisplayName("a request without an action or an initiator is refused, naming the missing field")
    void nullChecks() {
        assertThatThrownBy(() -> new FenceRequest(null, "cli"))
                .isInstanceOf(NullPointerException.class).hasMessage("action");
        assertThatThrownBy(() -> new FenceRequest(FenceAction.OFF, null))
                .isInstanceOf(NullPointerException.class).hasMessage("initiator");
        assertThatThrownBy(() -> FenceRequest.of(null))
                .isInstanceOf(NullPointerException.class).hasMessage("action");
    }

    @Test
    @DisplayName("a plug keeps its fields and refuses missing ones")
    void plug() {
        Plug plug = new Plug("3", "db-1", PowerState.OFF);

        assertThat(plug.id()).isEqualTo("3");
        assertThat(plug.alias()).isEqualTo("db-1");
        assertThat(plug.power()).isEqualTo(PowerState.OFF);
        assertThatThrownBy(() -> new Plug(null, "", PowerState.ON)).isInstanceOf(NullPointerException.class).hasMessage("id");
        assertThatThrownBy(() -> new Plug("1", null, PowerState.ON)).hasMessage("alias");
        assertThatThrownBy(() -> new Plug("1", "", null)).hasMessage("power");
    }

    @Test
    @DisplayName("only SUCCEEDED is a success status")
    void statusSuccess() {
        for (FenceStatus status : FenceStatus.values()) {
            assertThat(status.isSuccess()).as(status.name()).isEqualTo(status == FenceStatus.SUCCEEDED);
        }
    }

    @Test
    @DisplayName("RemedyException keeps its message and cause")
    void remedyException() {
        IllegalStateException cause = new IllegalStateException("root");

        assertThat(new RemedyException("plain")).isInstanceOf(RuntimeException.class).hasMessage("plain").hasNoCause();
        assertThat(new RemedyException("wrapped", cause)).hasMessage("wrapped").hasCause(cause);
    }
}
