#include "CLibcurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl's entry points, found by dlsym: linking libcurl would make every run of the program
// load it and the thirty libraries it needs, which costs a build that needs no network more
// than its own work.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    static const char *const names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "libcurl.dylib"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (%s)", dlerror());
        return;
    }
#define FIND(field, symbol)                                                                    \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) {                                   \
        snprintf(load_error, sizeof load_error, "libcurl has no %s", symbol);                  \
        return;                                                                                \
    }
    FIND(global_init, "curl_global_init")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not start");
    }
}

int holocron_http_load(char *why, size_t why_size) {
    pthread_once(&load_once, load);
    if (load_error[0]) {
        snprintf(why, why_size, "%s", load_error);
        return -1;
    }
    return 0;
}

struct holocron_http_flag {
    atomic_int value;
};

holocron_http_flag *holocron_http_flag_new(void) {
    holocron_http_flag *flag = malloc(sizeof *flag);
    if (flag) atomic_init(&flag->value, 0);
    return flag;
}

void holocron_http_flag_set(holocron_http_flag *flag) { atomic_store(&flag->value, 1); }

void holocron_http_flag_free(holocron_http_flag *flag) { free(flag); }

struct buffer {
    char *bytes;
    size_t length;
    size_t capacity;
    size_t limit;
    int overflowed;
};

static int append(struct buffer *buffer, const char *bytes, size_t length) {
    if (length > buffer->limit - buffer->length) {
        buffer->overflowed = 1;
        return 0;
    }
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity < buffer->length + length) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    return 1;
}

static size_t write_body(char *bytes, size_t size, size_t count, void *context) {
    return append(context, bytes, size * count) ? size * count : 0;
}

static int check_cancel(void *context, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total, curl_off_t up_now) {
    (void)down_total, (void)down_now, (void)up_total, (void)up_now;
    return atomic_load(&((const holocron_http_flag *)context)->value) ? 1 : 0;
}

void holocron_http_get(const char *url, const char *const *headers, int header_count, long timeout_ms,
                       size_t max_body, const holocron_http_flag *cancel, holocron_http_result *out) {
    memset(out, 0, sizeof *out);
    CURL *handle = curl.easy_init();
    if (!handle) {
        out->curl_code = CURLE_FAILED_INIT;
        return;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    struct buffer body = {.limit = max_body};
    struct buffer header_block = {.limit = 1 << 20};
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_body);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &body);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, write_body);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &header_block);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, check_cancel);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, cancel);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, out->error);
    CURLcode code = curl.easy_perform(handle);
    long os_errno = 0;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &out->status);
    curl.easy_getinfo(handle, CURLINFO_OS_ERRNO, &os_errno);
    curl.easy_cleanup(handle);
    curl.slist_free_all(list);
    out->curl_code = code;
    out->os_errno = (int)os_errno;
    out->body_too_large = body.overflowed || code == CURLE_FILESIZE_EXCEEDED;
    out->cancelled = code == CURLE_ABORTED_BY_CALLBACK;
    out->headers = header_block.bytes;
    out->headers_length = header_block.length;
    out->body = body.bytes;
    out->body_length = body.length;
}

void holocron_http_result_free(holocron_http_result *result) {
    free(result->headers);
    free(result->body);
    result->headers = result->body = NULL;
}
