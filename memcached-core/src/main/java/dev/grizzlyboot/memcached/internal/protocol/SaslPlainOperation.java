package dev.grizzlyboot.memcached.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import dev.grizzlyboot.memcached.AuthenticationException;

/**
 * The SASL exchange a new connection makes before it carries requests: SASL_LIST_MECHS and
 * SASL_AUTH with PLAIN, pipelined (one round trip). Completes when the server accepts the user;
 * fails with an {@link AuthenticationException} that names the server and the user, never the
 * password, when it does not (saying which mechanisms it offers if PLAIN is not among them).
 * Threading as for {@link Operation}.
 */
public final class SaslPlainOperation extends Operation<Void> {

    private static final String PLAIN = "PLAIN";

    private final String username;
    private List<String> mechanisms = List.of();

    public SaslPlainOperation(String username, String password) {
        // No deadline of its own: the connection is still being opened, and its connect timeout bounds the exchange.
        super(new Request[] {Request.of(Opcode.SASL_LIST_MECHS), Request.saslAuth(PLAIN, plainMessage(username, password))},
                Long.MAX_VALUE);
        this.username = username;
    }

    @Override
    public void onResponse(Response response) {
        if (indexOf(response) == 0) {
            if (response.ok()) {
                mechanisms = Arrays.asList(response.valueText().trim().split("\\s+"));
            }
            return;
        }
        if (response.ok()) {
            complete(null);
        } else {
            String offered = mechanisms.isEmpty() || mechanisms.contains(PLAIN) ? ""
                    : " (the server offers " + String.join(", ", mechanisms) + ", not PLAIN)";
            String text = response.value().length > 0 ? ": " + response.valueText() : "";
            fail(new AuthenticationException(response.serverStatus(), "SASL PLAIN authentication as '" + username + "' on "
                    + server() + " failed with " + response.serverStatus() + text + offered));
        }
    }

    @Override
    protected String describe() {
        return "SASL PLAIN authentication as '" + username + "'";
    }

    /** RFC 4616: an empty authorization identity, the user, the password, separated by NUL. */
    private static byte[] plainMessage(String username, String password) {
        return ("\0" + username + "\0" + password).getBytes(StandardCharsets.UTF_8);
    }
}
