package dev.remedy.simulators.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A plain java.net.http client for the simulator tests: one call per method, credentials chosen per call. */
final class TestClient {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** What a request authenticates with. */
    interface Auth {
        void apply(HttpRequest.Builder request);

        static Auth none() {
            return request -> { };
        }

        static Auth basic(String user, String password) {
            String pair = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            return request -> request.header("Authorization", "Basic " + pair);
        }

        static Auth token(String token) {
            return request -> request.header("X-Auth-Token", token);
        }
    }

    private final HttpClient http;
    private final URI base;

    TestClient(URI base) {
        this(base, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    TestClient(URI base, HttpClient http) {
        this.base = base;
        this.http = http;
    }

    static final Auth ADMIN = Auth.basic("admin", "redfish-secret");

    HttpResponse<String> get(String path, Auth auth) {
        return send(request(path, auth).GET());
    }

    HttpResponse<String> post(String path, String json, Auth auth) {
        return send(request(path, auth).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> delete(String path, Auth auth) {
        return send(request(path, auth).DELETE());
    }

    HttpResponse<String> method(String method, String path, Auth auth) {
        return send(request(path, auth).method(method, HttpRequest.BodyPublishers.noBody()));
    }

    /** GET, the body as bytes. */
    HttpResponse<byte[]> bytes(String path, Auth auth) {
        try {
            return http.send(request(path, auth).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** GET, the body as a stream to read as far as the caller wants. */
    InputStream stream(String path, Auth auth) {
        try {
            return http.send(request(path, auth).GET().build(), HttpResponse.BodyHandlers.ofInputStream()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** GET with admin Basic credentials, expecting 200, parsed. */
    JsonNode json(String path) {
        HttpResponse<String> response = get(path, ADMIN);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response);
    }

    static JsonNode parse(HttpResponse<String> response) {
        try {
            return MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpRequest.Builder request(String path, Auth auth) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
        auth.apply(request);
        return request;
    }
}
