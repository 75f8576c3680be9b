/* test_audit.c — what the audit log keeps of a write's fields
 * (core/audit.h: audit_redact): secrets by name and by content redacted,
 * the rest kept, long texts cut. */
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "unit/unit.h"

TEST(secrets_redacted)
{
    json_t *in = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:[s,s],s:{s:s,s:i}}", "app_id", "52cc4d7a7b6da6d7", "secret",
                           "s3cr3t", "client_secret", "x", "refresh_token", "r", "code", "abc", "cert_file",
                           "-----BEGIN CERTIFICATE-----", "cidr", "10.0.0.0/24", "10.0.1.0/24", "backend", "key_pem",
                           "-----BEGIN PRIVATE KEY-----\nMIG...", "port", 443);
    json_t *out = audit_redact(in);
    char *text = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(text, "{\"app_id\":\"52cc4d7a7b6da6d7\",\"backend\":{\"key_pem\":\"[redacted]\",\"port\":443},"
                    "\"cert_file\":\"[redacted]\",\"cidr\":[\"10.0.0.0/24\",\"10.0.1.0/24\"],\"client_secret\":"
                    "\"[redacted]\",\"code\":\"[redacted]\",\"refresh_token\":\"[redacted]\",\"secret\":\"[redacted]\"}");
    free(text);
    json_decref(out);
    json_decref(in);
}

TEST(long_text_cut)
{
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    json_t *in = json_pack("{s:s,s:s}", "site_desc", big, "pem_body", "x -----BEGIN RSA PRIVATE KEY----- y");
    json_t *out = audit_redact(in);
    const char *cut = json_string_value(json_object_get(out, "site_desc"));
    CHECK(cut && strlen(cut) == 512 + strlen("…"));
    CHECK_STR(json_string_value(json_object_get(out, "pem_body")), "[redacted]");
    json_decref(out);
    json_decref(in);
}

/* before -> after of a document: changed, added and removed members only,
 * secrets redacted on both sides */
TEST(doc_diff)
{
    json_t *before = json_pack("{s:s,s:[s],s:i,s:s,s:s}", "site_desc", "", "cidr", "10.0.0.0/24", "as_num", 64500,
                               "secret", "old-secret", "gone", "x");
    json_t *after = json_pack("{s:s,s:[s,s],s:i,s:s,s:b}", "site_desc", "now", "cidr", "10.0.0.0/24", "10.0.1.0/24",
                              "as_num", 64500, "secret", "new-secret", "added", 1);
    json_t *d = audit_doc_diff(before, after);
    char *text = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(text, "{\"added\":{\"after\":true,\"before\":null},\"cidr\":{\"after\":[\"10.0.0.0/24\",\"10.0.1.0/24\"],"
                    "\"before\":[\"10.0.0.0/24\"]},\"gone\":{\"after\":null,\"before\":\"x\"},"
                    "\"secret\":{\"after\":\"[redacted]\",\"before\":\"[redacted]\"},"
                    "\"site_desc\":{\"after\":\"now\",\"before\":\"\"}}");
    free(text);
    json_decref(d);
    d = audit_doc_diff(after, after);
    CHECK_INT(json_object_size(d), 0);
    json_decref(d);
    json_decref(before);
    json_decref(after);
}

UNIT_MAIN(UNIT_CASE(secrets_redacted), UNIT_CASE(long_text_cut), UNIT_CASE(doc_diff))
