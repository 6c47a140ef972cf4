package io.mtables.testing.auth;

/**
 * The service account the tests call ddl-service as: ddl-service's {@code %test} profile, and the
 * services the system tests start, hold the SHA-256 of this key ({@link #API_KEY_SHA256}). A test
 * key, valid nowhere else.
 */
public final class TestCredentials {

    public static final String ACCOUNT = "tests";

    public static final String API_KEY = "mtk.tests.hGK9DFBx2OjKzbnCP9sAWMZXOtSpoD0tVTKiRjaps";

    /** {@code printf %s "$API_KEY" | sha256sum} */
    public static final String API_KEY_SHA256 =
            "5044b92c60df3101028c25a28944173ab1b41e43897e6336fda0b22e82f0cc8d";

    /** The {@code Authorization} header's value, over REST and on {@code mt.ddl.commands}. */
    public static final String AUTHORIZATION = "Bearer " + API_KEY;

    /** The system property that gives a ddl-service process this account. */
    public static final String ACCOUNT_PROPERTY =
            "-Dmt.auth.service-accounts." + ACCOUNT + ".key-sha256=" + API_KEY_SHA256;

    /** The system property that makes this account an admin of a ddl-service process. */
    public static final String ADMIN_PROPERTY = "-Dmt.auth.admins=service-account:" + ACCOUNT;

    /** The principal this account's statements run as. */
    public static final String PRINCIPAL = "service-account:" + ACCOUNT;

    private TestCredentials() {}
}
