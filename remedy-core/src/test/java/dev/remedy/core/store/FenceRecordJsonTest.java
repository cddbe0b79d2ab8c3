package dev.remedy.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.test.conformance.FenceRecords;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link FenceRecordJson}, the public entry to the record's JSON document. */
@DisplayName("FenceRecordJson")
class FenceRecordJsonTest {

    @Test
    @DisplayName("a record with every optional written and read back is equal, and names its format and version")
    void roundTrip() throws Exception {
        NodeFence record = FenceRecords.withAgentOperation("worker-1").withVersion(7);

        String json = FenceRecordJson.write(record);

        assertThat(FenceRecordJson.read(json)).isEqualTo(record);
        assertThat(json).contains("\"format\" : " + FenceRecordJson.FORMAT).contains("\"version\" : 7");
    }

    @Test
    @DisplayName("the same bytes as the file store writes")
    void sameAsFileStore() {
        NodeFence record = FenceRecords.withClusterOperation("worker-2");

        assertThat(FenceRecordJson.write(record))
                .isEqualTo(new String(new FenceRecordCodec().write(record), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("an unknown field, another format and a non-object are corrupt records naming why")
    void corrupt() {
        String good = FenceRecordJson.write(FenceRecords.minimal("worker-1"));

        assertThatThrownBy(() -> FenceRecordJson.read(good.replaceFirst("\\{", "{ \"extra\" : 1,")))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("extra");
        assertThatThrownBy(() -> FenceRecordJson.read(good.replace("\"format\" : 1", "\"format\" : 2")))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("format 2 is not supported");
        assertThatThrownBy(() -> FenceRecordJson.read("[]"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("not a JSON object");
    }
}
