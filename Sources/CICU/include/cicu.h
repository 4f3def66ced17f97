#ifndef CICU_H
#define CICU_H

#include <stdint.h>

// ICU's CLDR plural rules (Debian's libicu-dev), behind plain C types: Foundation imports its
// own copy of ICU's headers into Swift, and the two sets of declarations can't meet in one
// module, so ICU's headers are included in cicu.c only. ICU also renames its functions per
// version (uplrules_open becomes uplrules_open_72); the C compiler resolves that here.

/// Opens the plural rules of `locale` (ICU's form, such as "es" or "en_GB"); NULL on failure,
/// with ICU's error code in `error`. Close with
/// cicu_plural_rules_close.
void *cicu_plural_rules_open(const char *locale, int32_t *error);

void cicu_plural_rules_close(void *rules);

/// Writes the category `number` takes ("one", "other") into `keyword` as UTF-8 with a final
/// NUL; returns its length, or -1 on failure.
int32_t cicu_plural_rules_select(const void *rules, double number, char *keyword, int32_t capacity);

/// Writes the categories the rules use, separated by spaces, into `buffer` with a final NUL;
/// returns the length, or -1 on failure.
int32_t cicu_plural_rules_categories(const void *rules, char *buffer, int32_t capacity);

#endif
