package dev.remedy.fence.redfish;

import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.fence.redfish.internal.client.RedfishJson;
import dev.remedy.spi.Plug;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Reads the members of a collection as plugs (id, name, power), all at once. */
final class Plugs {

    private Plugs() {
    }

    /** The plugs of {@code paths}, in their order. */
    static CompletableFuture<List<Plug>> of(RedfishConnection connection, List<String> paths) {
        List<CompletableFuture<Plug>> plugs = paths.stream().map(path -> connection.get(path).thenApply(member -> {
            String where = RedfishTarget.where(path, connection.service());
            return new Plug(RedfishJson.text(member, where, "Id").orElse(RedfishTarget.lastSegment(path)),
                    RedfishJson.text(member, where, "Name").orElse(""), RedfishTarget.powerOf(member, where));
        })).toList();
        return CompletableFuture.allOf(plugs.toArray(CompletableFuture[]::new))
                .thenApply(v -> plugs.stream().map(CompletableFuture::join).toList());
    }
}
