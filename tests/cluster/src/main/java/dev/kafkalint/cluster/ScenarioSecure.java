package dev.kafkalint.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.apache.kafka.clients.admin.Admin;

/**
 * Scenario T (KRaft): kafkalint live reaches secured listeners as managed clusters run them.
 *
 * <ul>
 *   <li>mutual TLS: a listener with {@code ssl.client.auth=required}; kafkalint's certificate (made
 *       here, signed by the harness CA) given as PEM inline ({@code ssl.keystore.key} and
 *       {@code ssl.keystore.certificate.chain}, continued over lines) and as a PEM file
 *       ({@code ssl.keystore.location}); without one, the broker refuses the handshake;</li>
 *   <li>the system trust store: no trust store configured, the CA given as the system's
 *       ({@code SSL_CERT_FILE}, which the platform's certificate loader reads on Linux);</li>
 *   <li>SASL OAUTHBEARER with the client-credentials grant: a local token endpoint over HTTPS
 *       issues RS256 JWTs, the brokers validate them with the JWKS it serves
 *       ({@code sasl.oauthbearer.jwks.endpoint.url}, allowed through the system property
 *       {@code org.apache.kafka.sasl.oauthbearer.allowed.urls} Kafka 4 requires,
 *       ConfigurationUtils.throwIfURLIsNotAllowed); a wrong client secret and a token signed by
 *       another key are refused, each in one line, no secret printed;</li>
 *   <li>the PLAINTEXT listener reached over TLS: the hint names the TLS side as kafkalint's.</li>
 * </ul>
 */
final class ScenarioSecure {
    static final String CLIENT_ID = "kafkalint";
    static final String CLIENT_SECRET = "proof-client-secret-5150";
    static final String STORE_PASS = "proof-store-pass-2291";

    final ClusterProof proof;
    final ClusterProof.Cluster cluster;
    final Path tls;
    final AtomicInteger tokensIssued = new AtomicInteger();
    final List<AutoCloseable> servers = new ArrayList<>();

    ScenarioSecure(ClusterProof proof, ClusterProof.Cluster cluster) {
        this.proof = proof;
        this.cluster = cluster;
        this.tls = cluster.dir.resolve("tls");
    }

    void run() throws Exception {
        try {
            certificates();
            KeyPair signing = rsa();
            KeyPair forger = rsa();
            int[] ports = ClusterProof.freePorts(2);
            String jwks = "http://127.0.0.1:" + ports[0] + "/jwks";
            String tokenUrl = "https://127.0.0.1:" + ports[1];
            jwksServer(ports[0], (RSAPublicKey) signing.getPublic());
            tokenServer(ports[1], signing, forger);
            proof.say("  a JWKS server (HTTP, %s) and a token endpoint (HTTPS, %s) issuing RS256 JWTs", jwks, tokenUrl);
            brokers(jwks);
            clients(tokenUrl);
        } finally {
            for (AutoCloseable server : servers) {
                server.close();
            }
        }
    }

    /** A CA, a certificate for 127.0.0.1 (brokers and the token endpoint), one for kafkalint. */
    void certificates() throws Exception {
        Files.createDirectories(tls);
        List<List<String>> steps = List.of(
                List.of("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=proof-ca",
                        "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12", "-storetype", "PKCS12"),
                List.of("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem"),
                List.of("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname",
                        "CN=127.0.0.1", "-validity", "2", "-keystore", "server.p12", "-storetype", "PKCS12"),
                List.of("-certreq", "-alias", "server", "-keystore", "server.p12", "-file", "server.csr"),
                List.of("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "server.csr", "-outfile",
                        "server.pem", "-rfc", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-ext", "EKU=serverAuth",
                        "-validity", "2"),
                List.of("-importcert", "-alias", "ca", "-keystore", "server.p12", "-file", "ca.pem", "-noprompt"),
                List.of("-importcert", "-alias", "server", "-keystore", "server.p12", "-file", "server.pem"),
                // RSA: an EC key as Java encodes it (PKCS#8 without its public key) is not one ring reads.
                List.of("-genkeypair", "-alias", "client", "-keyalg", "RSA", "-keysize", "2048", "-dname",
                        "CN=kafkalint-client", "-validity", "2", "-keystore", "client.p12", "-storetype", "PKCS12"),
                List.of("-certreq", "-alias", "client", "-keystore", "client.p12", "-file", "client.csr"),
                List.of("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "client.csr", "-outfile",
                        "client-cert.pem", "-rfc", "-ext", "EKU=clientAuth", "-validity", "2"),
                List.of("-importcert", "-alias", "ca", "-keystore", "client.p12", "-file", "ca.pem", "-noprompt"),
                List.of("-importcert", "-alias", "client", "-keystore", "client.p12", "-file", "client-cert.pem"));
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        for (List<String> step : steps) {
            List<String> cmd = new ArrayList<>(List.of(keytool));
            cmd.addAll(step);
            cmd.addAll(List.of("-storepass", STORE_PASS, "-keypass", STORE_PASS));
            Process p = new ProcessBuilder(cmd).directory(tls.toFile()).redirectErrorStream(true).start();
            String out = ClusterProof.readAll(p.getInputStream());
            ClusterProof.check(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0,
                    "keytool " + step.get(0) + " failed: " + out);
        }
        // kafkalint's key and chain as PEM (PKCS#8, what `openssl pkcs12 -nodes` writes).
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(tls.resolve("client.p12").toFile())) {
            store.load(in, STORE_PASS.toCharArray());
        }
        PrivateKey key = (PrivateKey) store.getKey("client", STORE_PASS.toCharArray());
        StringBuilder pem = new StringBuilder(pem("PRIVATE KEY", key.getEncoded()));
        for (Certificate certificate : store.getCertificateChain("client")) {
            pem.append(pem("CERTIFICATE", certificate.getEncoded()));
        }
        Files.writeString(tls.resolve("client.pem"), pem);
        proof.say("  keytool: a CA, a certificate for 127.0.0.1, and kafkalint's client certificate (as PEM)");
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    static String base64url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The key as a JWK, its modulus without the sign byte (RFC 7518 section 6.3.1). */
    void jwksServer(int port, RSAPublicKey key) throws IOException {
        byte[] modulus = key.getModulus().toByteArray();
        if (modulus[0] == 0) {
            modulus = java.util.Arrays.copyOfRange(modulus, 1, modulus.length);
        }
        String body = "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"proof-key\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
                + base64url(modulus) + "\",\"e\":\"" + base64url(key.getPublicExponent().toByteArray()) + "\"}]}";
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/jwks", exchange -> answer(exchange, 200, body));
        server.start();
        servers.add(() -> server.stop(0));
    }

    /**
     * The client-credentials grant (RFC 6749 section 4.4): Basic client id and secret, a form body.
     * {@code /token} signs with the key the JWKS has; {@code /forged} with another one.
     */
    void tokenServer(int port, KeyPair signing, KeyPair forger) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(tls.resolve("server.p12").toFile())) {
            store.load(in, STORE_PASS.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, STORE_PASS.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        String basic = "Basic " + Base64.getEncoder().encodeToString(
                (CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
        for (Map.Entry<String, KeyPair> path : Map.of("/token", signing, "/forged", forger).entrySet()) {
            server.createContext(path.getKey(), exchange -> {
                String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                if (!exchange.getRequestMethod().equals("POST") || !basic.equals(authorization)
                        || !form.startsWith("grant_type=client_credentials")) {
                    // What some endpoints do: the body says what it was sent.
                    answer(exchange, 401, "{\"error\":\"invalid_client\",\"got\":\"" + authorization + "\"}");
                    return;
                }
                tokensIssued.incrementAndGet();
                try {
                    answer(exchange, 200, "{\"access_token\":\"" + jwt(path.getValue()) + "\",\"token_type\":\"Bearer\","
                            + "\"expires_in\":3600}");
                } catch (Exception e) {
                    answer(exchange, 500, "{}");
                }
            });
        }
        server.start();
        servers.add(() -> server.stop(0));
    }

    static String jwt(KeyPair key) throws Exception {
        long now = System.currentTimeMillis() / 1000;
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"proof-key\"}";
        String claims = "{\"sub\":\"kafkalint\",\"iss\":\"proof-idp\",\"aud\":\"kafka\",\"scope\":\"kafka\",\"iat\":"
                + now + ",\"exp\":" + (now + 3600) + "}";
        String signed = base64url(header.getBytes(StandardCharsets.UTF_8)) + "."
                + base64url(claims.getBytes(StandardCharsets.UTF_8));
        Signature rs256 = Signature.getInstance("SHA256withRSA");
        rs256.initSign(key.getPrivate());
        rs256.update(signed.getBytes(StandardCharsets.US_ASCII));
        return signed + "." + base64url(rs256.sign());
    }

    static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** Every node gets an MTLS listener (SSL, client certificates required) and an OAUTH one. */
    void brokers(String jwks) throws Exception {
        int[] ports = cluster.extraPorts;
        for (int id = 0; id < ClusterProof.NODES; id++) {
            Path file = cluster.config.resolve("server-" + id + ".properties");
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            String plain = "PLAINTEXT://127.0.0.1:" + cluster.brokerPort(id);
            String more = ",MTLS://127.0.0.1:" + ports[id] + ",OAUTH://127.0.0.1:" + ports[ClusterProof.NODES + id];
            text = text.replace("listeners=" + plain + ",CONTROLLER", "listeners=" + plain + more + ",CONTROLLER")
                    .replace("advertised.listeners=" + plain + "\n", "advertised.listeners=" + plain + more + "\n")
                    .replace("listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                            "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,MTLS:SSL,"
                                    + "OAUTH:SASL_PLAINTEXT");
            text += String.join("\n",
                    "listener.name.mtls.ssl.client.auth=required",
                    "ssl.keystore.type=PKCS12",
                    "ssl.keystore.location=" + tls.resolve("server.p12"),
                    "ssl.keystore.password=" + STORE_PASS,
                    "ssl.key.password=" + STORE_PASS,
                    "ssl.truststore.type=PEM",
                    "ssl.truststore.location=" + tls.resolve("ca.pem"),
                    "listener.name.oauth.sasl.enabled.mechanisms=OAUTHBEARER",
                    "listener.name.oauth.oauthbearer.sasl.jaas.config="
                            + "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
                    "listener.name.oauth.oauthbearer.sasl.server.callback.handler.class="
                            + "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler",
                    // The form OAuthBearerValidatorCallbackHandler's doc gives, and the broker-wide one
                    // its ConfigurationUtils falls back to.
                    "listener.name.oauth.oauthbearer.sasl.oauthbearer.jwks.endpoint.url=" + jwks,
                    "sasl.oauthbearer.jwks.endpoint.url=" + jwks,
                    "sasl.oauthbearer.expected.audience=kafka",
                    // Required by 4.4's broker validator (its configure() refuses to start without it).
                    "sasl.oauthbearer.expected.issuer=proof-idp",
                    "");
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        }
        cluster.nodeOptions.add("-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=" + jwks);
        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
        }
        proof.say("  listeners MTLS (ssl.client.auth=required) and OAUTH (OAUTHBEARER, JWKS-validated) on every node");
    }

    record Client(String name, int[] port, String properties, Map<String, String> env) {}

    void clients(String tokenUrl) throws Exception {
        int nodes = ClusterProof.NODES;
        int[] mtlsPorts = java.util.Arrays.copyOfRange(cluster.extraPorts, 0, nodes);
        int[] oauthPorts = java.util.Arrays.copyOfRange(cluster.extraPorts, nodes, 2 * nodes);
        String trust = "ssl.truststore.type=PEM\nssl.truststore.location=" + tls.resolve("ca.pem") + "\n";
        String clientPem = Files.readString(tls.resolve("client.pem"));
        String key = clientPem.substring(0, clientPem.indexOf("-----BEGIN CERTIFICATE-----"));
        String chain = clientPem.substring(clientPem.indexOf("-----BEGIN CERTIFICATE-----"));
        // Kafka's documented inline form: one PEM value continued over lines with a backslash.
        String inline = "ssl.keystore.type=PEM\nssl.keystore.key=" + continued(key)
                + "ssl.keystore.certificate.chain=" + continued(chain);
        String file = "ssl.keystore.type=PEM\nssl.keystore.location=" + tls.resolve("client.pem") + "\n";
        String oauth = "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n"
                + "sasl.login.callback.handler.class="
                + "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler\n"
                + "sasl.oauthbearer.token.endpoint.url=" + tokenUrl + "/token\n"
                + "sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
                + "clientId=\"" + CLIENT_ID + "\" clientSecret=\"" + CLIENT_SECRET + "\" scope=\"kafka\" "
                + "ssl.truststore.type=\"PEM\" ssl.truststore.location=\"" + tls.resolve("ca.pem") + "\";\n";
        List<Client> clients = List.of(
                new Client("mtls-inline-pem", mtlsPorts, "security.protocol=SSL\n" + trust + inline, Map.of()),
                new Client("mtls-pem-file", mtlsPorts, "security.protocol=SSL\n" + trust + file, Map.of()),
                new Client("mtls-system-trust", mtlsPorts, "security.protocol=SSL\n" + file,
                        Map.of("SSL_CERT_FILE", tls.resolve("ca.pem").toString())),
                new Client("oauthbearer", oauthPorts, oauth, Map.of()));
        List<String> secrets = List.of(STORE_PASS, CLIENT_SECRET, base64url(CLIENT_SECRET.getBytes()),
                keyLine(key), "eyJhbGciOiJSUzI1NiIs");
        for (Client client : clients) {
            int before = tokensIssued.get();
            Path properties = cluster.dir.resolve(client.name + ".properties");
            Files.writeString(properties, client.properties);
            Path snapshot = cluster.dir.resolve(client.name + ".snapshot");
            long t = System.nanoTime();
            ClusterProof.Command c = run(List.of("live", "--bootstrap-server", "127.0.0.1:" + client.port[0],
                    "--command-config", properties.toString(), "--save-snapshot", snapshot.toString(), "--format",
                    "json"), client.env);
            long took = System.nanoTime() - t;
            ClusterProof.check(c.exit() == 0 || c.exit() == 1,
                    client.name + ": kafkalint live failed (exit " + c.exit() + "): " + c.stderr());
            String saved = Files.readString(snapshot);
            for (int id = 0; id < nodes; id++) {
                ClusterProof.check(saved.contains("broker." + id + "=127.0.0.1:" + client.port[id] + "\n"),
                        client.name + ": broker " + id + " should be listed on this listener's port");
                ClusterProof.check(saved.contains("config." + id + ".static.listeners="),
                        client.name + ": broker " + id + "'s own settings should be read");
            }
            for (String secret : secrets) {
                ClusterProof.check(!(c.stdout() + c.stderr() + saved).contains(secret),
                        client.name + ": a secret was printed");
            }
            String tokens = client.name.equals("oauthbearer") ? ", " + (tokensIssued.get() - before) + " token asked" : "";
            if (client.name.equals("oauthbearer")) {
                ClusterProof.check(tokensIssued.get() - before == 1, "one token a run, got " + (tokensIssued.get() - before));
            }
            proof.say("  %s: kafkalint live reads 3 brokers and their settings over it (exit %d, %s%s), no secret printed",
                    client.name, c.exit(), ClusterProof.secs(took), tokens);
        }

        record Refused(String name, String properties, int port, String expected) {}
        List<Refused> refused = List.of(
                new Refused("the MTLS listener without a client certificate", "security.protocol=SSL\n" + trust,
                        mtlsPorts[0], "cannot connect to 127.0.0.1:" + mtlsPorts[0]),
                new Refused("the PLAINTEXT listener reached over TLS", "security.protocol=SSL\n" + trust,
                        cluster.brokerPort(0), "a PLAINTEXT or SASL_PLAINTEXT listener reached over TLS"),
                new Refused("a wrong client secret", oauth.replace(CLIENT_SECRET, "not-the-secret-8080"),
                        oauthPorts[0], "it answered HTTP 401"),
                new Refused("a token signed by a key the JWKS does not have", oauth.replace("/token\n", "/forged\n"),
                        oauthPorts[0], "refused the SASL login"));
        for (Refused r : refused) {
            Path properties = cluster.dir.resolve("refused.properties");
            Files.writeString(properties, r.properties);
            long t = System.nanoTime();
            ClusterProof.Command c = run(List.of("live", "--bootstrap-server", "127.0.0.1:" + r.port,
                    "--command-config", properties.toString(), "--timeout", "20"), Map.of());
            long took = System.nanoTime() - t;
            ClusterProof.check(c.exit() == 2, r.name + ": exit 2 expected, got " + c.exit() + ": " + c.stderr());
            ClusterProof.check(c.stderr().contains(r.expected) && c.stderr().strip().lines().count() == 1,
                    r.name + ": one line naming it expected, got: " + c.stderr());
            ClusterProof.check(took < Duration.ofSeconds(30).toNanos(), r.name + ": took " + ClusterProof.secs(took));
            for (String secret : List.of(CLIENT_SECRET, "not-the-secret", "eyJhbGciOiJSUzI1NiIs")) {
                ClusterProof.check(!c.stderr().contains(secret), r.name + ": a secret was printed");
            }
            proof.say("  %s: exit 2 in %s: %s", r.name, ClusterProof.secs(took), c.stderr().strip());
        }
    }

    /** A PEM text as a properties value continued over lines. */
    static String continued(String pem) {
        return String.join(" \\\n  ", pem.strip().split("\n")) + "\n";
    }

    /** A line of the key's base64, to look for in what kafkalint printed. */
    static String keyLine(String keyPem) {
        return keyPem.split("\n")[1];
    }

    /** kafkalint with an environment of its own (the system trust store's variables). */
    ClusterProof.Command run(List<String> args, Map<String, String> env) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(proof.kafkalint.toString());
        cmd.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(cmd);
        builder.environment().remove("SSL_CERT_FILE");
        builder.environment().remove("SSL_CERT_DIR");
        builder.environment().putAll(env);
        Process p = builder.start();
        proof.children.add(p);
        try {
            var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> ClusterProof.readAll(p.getInputStream()));
            var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> ClusterProof.readAll(p.getErrorStream()));
            ClusterProof.check(p.waitFor(60, TimeUnit.SECONDS), "kafkalint did not finish within 60 s: " + cmd);
            return new ClusterProof.Command(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
            proof.children.remove(p);
        }
    }
}
