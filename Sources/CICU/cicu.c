#include "cicu.h"

#include <string.h>
#include <unicode/uenum.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

void *cicu_plural_rules_open(const char *locale, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    *error = status;
    if (U_FAILURE(status)) {
        if (rules) uplrules_close(rules);
        return NULL;
    }
    return rules;
}

void cicu_plural_rules_close(void *rules) {
    uplrules_close((UPluralRules *)rules);
}

int32_t cicu_plural_rules_select(const void *rules, double number, char *keyword, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar wide[32];
    int32_t length = uplrules_select((const UPluralRules *)rules, number, wide, 32, &status);
    if (U_FAILURE(status) || length <= 0 || length >= capacity) return -1;
    u_UCharsToChars(wide, keyword, length);
    keyword[length] = 0;
    return length;
}

int32_t cicu_plural_rules_categories(const void *rules, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *keywords = uplrules_getKeywords((const UPluralRules *)rules, &status);
    if (U_FAILURE(status) || !keywords) return -1;
    int32_t used = 0;
    const char *name;
    int32_t length;
    while ((name = uenum_next(keywords, &length, &status)) && U_SUCCESS(status)) {
        if (used + length + 2 > capacity) {
            uenum_close(keywords);
            return -1;
        }
        if (used > 0) buffer[used++] = ' ';
        memcpy(buffer + used, name, (size_t)length);
        used += length;
    }
    uenum_close(keywords);
    buffer[used] = 0;
    return U_FAILURE(status) ? -1 : used;
}
