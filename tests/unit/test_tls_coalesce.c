/* test_tls_coalesce.c — server/tls_coalesce.h against a fake GnuTLS send:
 * an announced body goes out in one call with the reply's head, its own
 * call then sends nothing; GNUTLS_E_AGAIN and partial sends are accounted
 * so that the caller sees exactly its own bytes go out; everything else
 * passes through. */
#include "server/tls_coalesce.h"

#include "unit.h"

static struct {
    int calls;
    char data[TLS_COALESCE_MAX + 64];
    size_t size;
    ssize_t answer; /* what the next call answers; 0: all it was given */
} fake;

static ssize_t fake_send(gnutls_session_t session, const void *data, size_t size)
{
    (void)session;
    fake.calls++;
    memcpy(fake.data, data, size < sizeof fake.data ? size : sizeof fake.data);
    fake.size = size;
    ssize_t n = fake.answer ? fake.answer : (ssize_t)size;
    fake.answer = 0;
    return n;
}

static const char head[] = "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n";
static const char body[] = "{\"code\":0}\r\n!";
#define HEAD_LEN (sizeof head - 1)
#define BODY_LEN (sizeof body - 1)

static void reset(struct tls_coalesce *c)
{
    memset(&fake, 0, sizeof fake);
    memset(c, 0, sizeof *c);
}

TEST(without_an_announced_body_every_call_passes_through)
{
    struct tls_coalesce c;
    reset(&c);
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN);
    CHECK_INT(fake.calls, 1);
    CHECK_INT(fake.size, HEAD_LEN);
}

TEST(head_and_body_go_out_in_one_call)
{
    struct tls_coalesce c;
    reset(&c);
    tls_coalesce_expect(&c, body, BODY_LEN);
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN);
    CHECK_INT(fake.calls, 1);
    CHECK_INT(fake.size, HEAD_LEN + BODY_LEN);
    CHECK(memcmp(fake.data, head, HEAD_LEN) == 0 && memcmp(fake.data + HEAD_LEN, body, BODY_LEN) == 0);
    CHECK_INT(tls_coalesce_send(&c, NULL, body, BODY_LEN, fake_send), BODY_LEN);
    CHECK_INT(fake.calls, 1); /* the body's call sent nothing more */
    /* the announcement is used up: the next reply's head passes through */
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN);
    CHECK_INT(fake.calls, 2);
    CHECK_INT(fake.size, HEAD_LEN);
}

TEST(a_send_that_must_wait_is_repeated_whole)
{
    struct tls_coalesce c;
    reset(&c);
    tls_coalesce_expect(&c, body, BODY_LEN);
    fake.answer = GNUTLS_E_AGAIN;
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), GNUTLS_E_AGAIN);
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN); /* libmicrohttpd's retry */
    CHECK_INT(fake.calls, 2);
    CHECK_INT(fake.size, HEAD_LEN + BODY_LEN);
    CHECK_INT(tls_coalesce_send(&c, NULL, body, BODY_LEN, fake_send), BODY_LEN);
    CHECK_INT(fake.calls, 2);
}

TEST(a_partial_send_is_accounted_to_head_then_body)
{
    struct tls_coalesce c;
    reset(&c);
    tls_coalesce_expect(&c, body, BODY_LEN);
    fake.answer = 5; /* part of the head */
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), 5);
    fake.answer = (ssize_t)(HEAD_LEN - 5 + 3); /* the rest of the head and 3 bytes of the body */
    CHECK_INT(tls_coalesce_send(&c, NULL, head + 5, HEAD_LEN - 5, fake_send), HEAD_LEN - 5);
    CHECK_INT(fake.size, HEAD_LEN - 5 + BODY_LEN);
    CHECK_INT(tls_coalesce_send(&c, NULL, body, BODY_LEN, fake_send), 3);
    CHECK_INT(fake.calls, 2);
    CHECK_INT(tls_coalesce_send(&c, NULL, body + 3, BODY_LEN - 3, fake_send), BODY_LEN - 3);
    CHECK_INT(fake.calls, 3);
    CHECK_INT(fake.size, BODY_LEN - 3);
    CHECK(memcmp(fake.data, body + 3, BODY_LEN - 3) == 0);
}

TEST(a_head_sent_without_the_body_leaves_the_body_to_its_call)
{
    struct tls_coalesce c;
    reset(&c);
    tls_coalesce_expect(&c, body, BODY_LEN);
    fake.answer = (ssize_t)HEAD_LEN;
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN);
    CHECK_INT(tls_coalesce_send(&c, NULL, body, BODY_LEN, fake_send), BODY_LEN);
    CHECK_INT(fake.calls, 2);
    CHECK_INT(fake.size, BODY_LEN);
}

TEST(large_or_unlike_sends_pass_through)
{
    static char big[TLS_COALESCE_MAX];
    memset(big, 'x', sizeof big);
    struct tls_coalesce c;
    reset(&c);
    tls_coalesce_expect(&c, big, TLS_COALESCE_MAX - HEAD_LEN + 1); /* one byte too many */
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN);
    CHECK_INT(fake.size, HEAD_LEN);
    tls_coalesce_expect(&c, big, TLS_COALESCE_MAX); /* never joined */
    CHECK(c.body == NULL);
    tls_coalesce_expect(&c, body, BODY_LEN);
    CHECK_INT(tls_coalesce_send(&c, NULL, "partial head", 12, fake_send), 12); /* not a whole head */
    CHECK_INT(fake.size, 12);
    static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n"; /* an interim reply takes no body */
    CHECK_INT(tls_coalesce_send(&c, NULL, cont, sizeof cont - 1, fake_send), sizeof cont - 1);
    CHECK_INT(fake.size, sizeof cont - 1);
    tls_coalesce_expect(&c, NULL, 0); /* withdrawn */
    CHECK_INT(tls_coalesce_send(&c, NULL, head, HEAD_LEN, fake_send), HEAD_LEN);
    CHECK_INT(fake.size, HEAD_LEN);
}

UNIT_MAIN(UNIT_CASE(without_an_announced_body_every_call_passes_through),
          UNIT_CASE(head_and_body_go_out_in_one_call), UNIT_CASE(a_send_that_must_wait_is_repeated_whole),
          UNIT_CASE(a_partial_send_is_accounted_to_head_then_body),
          UNIT_CASE(a_head_sent_without_the_body_leaves_the_body_to_its_call),
          UNIT_CASE(large_or_unlike_sends_pass_through))
