package dev.remedy.fence.redfish;

import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.spi.Plug;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Reads the members of a collection as plugs (id, name, power), all at once. */
final class Plugs {

    private Plugs() {
    }

    /** The plugs of {@code paths}, in their order. */
    static CompletableFuture<List<Plug>> of(RedfishConnection connection, List<String> paths) {
        List<CompletableFuture<Plug>> plugs = paths.stream().map(path -> connection.get(path)
                .thenApply(member -> new Plug(member.path("Id").asText(RedfishTarget.lastSegment(path)),
                        member.path("Name").asText(""), RedfishTarget.powerOf(member)))).toList();
        return CompletableFuture.allOf(plugs.toArray(CompletableFuture[]::new))
                .thenApply(v -> plugs.stream().map(CompletableFuture::join).toList());
    }
}
