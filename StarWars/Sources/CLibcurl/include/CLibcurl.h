#ifndef CLIBCURL_H
#define CLIBCURL_H

#include <stddef.h>

/// One GET's outcome. `curl_code` is libcurl's CURLcode (0 when a response arrived, whatever
/// its status); `os_errno` the system error behind a failed connection; `headers` the raw
/// header block, `body` the body (both owned, freed by `holocron_http_result_free`).
typedef struct holocron_http_result {
    long status;
    int curl_code;
    int os_errno;
    int body_too_large;
    int cancelled;
    char *headers;
    size_t headers_length;
    char *body;
    size_t body_length;
    char error[256];
} holocron_http_result;

/// A flag another thread sets to stop a request in flight.
typedef struct holocron_http_flag holocron_http_flag;

/// Loads the system's libcurl on first use (`dlopen`: a program that never fetches never
/// loads it). Returns 0, or -1 with the reason in `why`.
int holocron_http_load(char *why, size_t why_size);

/// GETs `url` with the `header_count` request headers ("Name: value"), without following
/// redirects, failing when the whole exchange takes longer than `timeout_ms` or the body
/// passes `max_body` bytes, or when `cancel` is set. Blocks the calling thread.
void holocron_http_get(const char *url, const char *const *headers, int header_count, long timeout_ms,
                       size_t max_body, const holocron_http_flag *cancel, holocron_http_result *out);

void holocron_http_result_free(holocron_http_result *result);

holocron_http_flag *holocron_http_flag_new(void);
void holocron_http_flag_set(holocron_http_flag *flag);
void holocron_http_flag_free(holocron_http_flag *flag);

#endif
