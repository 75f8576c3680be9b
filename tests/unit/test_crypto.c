/* test_crypto.c — base/crypto.h: SHA-256 vectors, random hex, constant-time
 * string comparison. */
#include "base/crypto.h"

#include "unit.h"

static const char *sha(const char *in)
{
    static char out[65];
    memset(out, 'X', sizeof out);
    sha256_hex(in, out);
    return out;
}

TEST(sha256_known_vectors)
{
    /* FIPS 180-2 examples and the empty string */
    CHECK_STR(sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK_STR(sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK_STR(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK_INT(strlen(sha("x")), 64);
}

static bool all_lower_hex(const char *s)
{
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return false;
    return true;
}

TEST(random_hex_shape)
{
    char a[2 * SECRET_BYTES + 1], b[2 * SECRET_BYTES + 1];
    memset(a, 'X', sizeof a);
    random_hex(a, SECRET_BYTES);
    random_hex(b, SECRET_BYTES);
    CHECK_INT(strlen(a), 2 * SECRET_BYTES);
    CHECK(all_lower_hex(a) && all_lower_hex(b));
    CHECK(strcmp(a, b) != 0); /* 256 bits: equal draws mean a broken generator */

    char id[2 * ID_BYTES + 1];
    random_hex(id, ID_BYTES);
    CHECK_INT(strlen(id), 16);
    CHECK(all_lower_hex(id));

    char one[3];
    random_hex(one, 1);
    CHECK_INT(strlen(one), 2);
    char none[1] = {'X'};
    random_hex(none, 0);
    CHECK_STR(none, "");
}

TEST(random_hex_covers_all_digits)
{
    /* 64 draws of 32 bytes: every hex digit shows up (the chance one is
     * missing is about 16 * (15/16)^4096, i.e. never). */
    int seen[16] = {0};
    for (int i = 0; i < 64; i++) {
        char s[2 * SECRET_BYTES + 1];
        random_hex(s, SECRET_BYTES);
        for (char *p = s; *p; p++)
            seen[*p <= '9' ? *p - '0' : *p - 'a' + 10]++;
    }
    for (int d = 0; d < 16; d++)
        CHECK(seen[d] > 0);
}

TEST(ct_streq_semantics)
{
    CHECK(ct_streq("", ""));
    CHECK(ct_streq("secret", "secret"));
    CHECK(!ct_streq("secret", "secreT"));
    CHECK(!ct_streq("secret", "Secret"));
    CHECK(!ct_streq("secret", "secret2"));
    CHECK(!ct_streq("secret2", "secret"));
    CHECK(!ct_streq("", "a"));
    CHECK(!ct_streq("a", ""));
    CHECK(!ct_streq("\xC1", "\x41")); /* a difference only in the high bit counts */
    CHECK(ct_streq("\xff\xfe", "\xff\xfe"));
    CHECK(!ct_streq("\xff\xfe", "\xfe\xff"));
}

UNIT_MAIN(UNIT_CASE(sha256_known_vectors), UNIT_CASE(random_hex_shape),
          UNIT_CASE(random_hex_covers_all_digits), UNIT_CASE(ct_streq_semantics))
