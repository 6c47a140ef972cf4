package io.mtables.ddl.security;

import io.mtables.ddl.metrics.AccessMetrics;
import io.quarkus.runtime.Startup;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Authenticates bearer tokens that are service accounts' API keys; every other bearer token is left
 * to the JWT validator after it (this provider's priority is higher).
 */
@ApplicationScoped
@Startup // a malformed key digest fails the start, not the first request
public class ApiKeyIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    /** How a caller authenticated, as the identity's attribute {@value}. */
    public static final String METHOD = "mt.auth.method";

    private static final Logger LOG = Logger.getLogger(ApiKeyIdentityProvider.class);

    private static final java.util.regex.Pattern ACCOUNT_NAME =
            java.util.regex.Pattern.compile("[a-z0-9][a-z0-9_-]*");

    private final Map<String, String> digests = new HashMap<>();
    private final AccessMetrics metrics;

    public ApiKeyIdentityProvider(AuthConfig config, AccessMetrics metrics) {
        this.metrics = metrics;
        config.serviceAccounts()
                .forEach(
                        (name, account) -> {
                            if (!ACCOUNT_NAME.matcher(name).matches()) {
                                throw new IllegalArgumentException(
                                        "mt.auth.service-accounts.<name>: '"
                                                + name
                                                + "' is not an account name: lower-case letters,"
                                                + " digits, '-' and '_', starting with a letter or"
                                                + " digit (it is the middle of the key"
                                                + " mtk.<name>.<secret>)");
                            }
                            String digest = account.keySha256().trim().toLowerCase();
                            if (digest.length() != 64 || !isHex(digest)) {
                                // Not echoed: a key pasted here by mistake stays out of the log.
                                throw new IllegalArgumentException(
                                        "mt.auth.service-accounts."
                                                + name
                                                + ".key-sha256 must be 64 hex digits (the SHA-256"
                                                + " of the account's key, not the key), not a"
                                                + " value of "
                                                + account.keySha256().length()
                                                + " characters");
                            }
                            digests.put(name, digest);
                        });
        LOG.infof("service accounts with an API key: %s", digests.keySet());
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        // Before smallrye-jwt's validator (the default, 1001), which would refuse a key as no JWT.
        return 2000;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(
            TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        String token = request.getToken().getToken();
        if (!ApiKeys.looksLikeApiKey(token)) {
            return Uni.createFrom().nullItem();
        }
        long start = System.nanoTime();
        Optional<String> known = ApiKeys.accountOf(token, digests);
        metrics.authenticated(System.nanoTime() - start);
        return known.map(
                        account ->
                                Uni.createFrom()
                                        .<SecurityIdentity>item(
                                                QuarkusSecurityIdentity.builder()
                                                        .setPrincipal(new QuarkusPrincipal(account))
                                                        .addCredential(request.getToken())
                                                        .addAttribute(METHOD, "api-key")
                                                        .build()))
                .orElseGet(
                        () ->
                                Uni.createFrom()
                                        .failure(
                                                new AuthenticationFailedException(
                                                        "unknown API key")));
    }

    private static boolean isHex(String text) {
        try {
            HexFormat.of().parseHex(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
