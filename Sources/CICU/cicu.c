#include "cicu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unicode/uenum.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

// ICU is loaded the first time a language's rules are opened, not when the program starts:
// its two libraries cost every run of holocron about 0.9 ms of loading and relocating, and a
// rebuild with nothing changed, or `--version`, never asks for a plural.

#define CICU_TEXT_(x) #x
#define CICU_TEXT(x) CICU_TEXT_(x)

// The functions used, by the names the headers give them (ICU appends its major version:
// uplrules_open is uplrules_open_72), so the symbols looked up are the ones compiled against.
static struct {
    __typeof__(&uplrules_open) open;
    __typeof__(&uplrules_close) close;
    __typeof__(&uplrules_select) select;
    __typeof__(&uplrules_getKeywords) keywords;
    __typeof__(&uenum_next) next;
    __typeof__(&uenum_close) enumClose;
    __typeof__(&u_UCharsToChars) toChars;
} icu;
static char icu_failure[512];
static pthread_once_t icu_once = PTHREAD_ONCE_INIT;

static void icu_load(void) {
    // The libraries of the version the headers are from, as the package's soname gives them.
    const char *names[] = {"libicuuc.so." CICU_TEXT(U_ICU_VERSION_MAJOR_NUM), "libicui18n.so." CICU_TEXT(U_ICU_VERSION_MAJOR_NUM)};
    void *libraries[2];
    for (int index = 0; index < 2; index++) {
        libraries[index] = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
        if (!libraries[index]) {
            const char *reason = dlerror();
            snprintf(icu_failure, sizeof icu_failure, "%s", reason ? reason : names[index]);
            return;
        }
    }
    void *common = libraries[0], *i18n = libraries[1];
    icu.open = (__typeof__(icu.open))dlsym(i18n, CICU_TEXT(uplrules_open));
    icu.close = (__typeof__(icu.close))dlsym(i18n, CICU_TEXT(uplrules_close));
    icu.select = (__typeof__(icu.select))dlsym(i18n, CICU_TEXT(uplrules_select));
    icu.keywords = (__typeof__(icu.keywords))dlsym(i18n, CICU_TEXT(uplrules_getKeywords));
    icu.next = (__typeof__(icu.next))dlsym(common, CICU_TEXT(uenum_next));
    icu.enumClose = (__typeof__(icu.enumClose))dlsym(common, CICU_TEXT(uenum_close));
    icu.toChars = (__typeof__(icu.toChars))dlsym(common, CICU_TEXT(u_UCharsToChars));
    if (!icu.open || !icu.close || !icu.select || !icu.keywords || !icu.next || !icu.enumClose || !icu.toChars) {
        snprintf(icu_failure, sizeof icu_failure, "%s lacks the plural rules functions of ICU %s", names[1], U_ICU_VERSION);
        icu.open = NULL;
    }
}

const char *cicu_failure(void) {
    pthread_once(&icu_once, icu_load);
    return icu.open ? NULL : icu_failure;
}

void *cicu_plural_rules_open(const char *locale, int32_t *error) {
    if (cicu_failure()) {
        *error = CICU_NOT_LOADED;
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = icu.open(locale, &status);
    *error = status;
    if (U_FAILURE(status)) {
        if (rules) icu.close(rules);
        return NULL;
    }
    return rules;
}

void cicu_plural_rules_close(void *rules) {
    icu.close((UPluralRules *)rules);
}

int32_t cicu_plural_rules_select(const void *rules, double number, char *keyword, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar wide[32];
    int32_t length = icu.select((const UPluralRules *)rules, number, wide, 32, &status);
    if (U_FAILURE(status) || length <= 0 || length >= capacity) return -1;
    icu.toChars(wide, keyword, length);
    keyword[length] = 0;
    return length;
}

int32_t cicu_plural_rules_categories(const void *rules, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *keywords = icu.keywords((const UPluralRules *)rules, &status);
    if (U_FAILURE(status) || !keywords) return -1;
    int32_t used = 0;
    const char *name;
    int32_t length;
    while ((name = icu.next(keywords, &length, &status)) && U_SUCCESS(status)) {
        if (used + length + 2 > capacity) {
            icu.enumClose(keywords);
            return -1;
        }
        if (used > 0) buffer[used++] = ' ';
        memcpy(buffer + used, name, (size_t)length);
        used += length;
    }
    icu.enumClose(keywords);
    buffer[used] = 0;
    return U_FAILURE(status) ? -1 : used;
}
